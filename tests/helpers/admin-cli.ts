/** The operator CLI run in the test's process against the test's database, with what it printed. */
import { runAdminCommand } from "@/lib/cli/admin-cli";
import type { Db } from "@/lib/db/prisma";

export async function runAdmin(db: Db, args: string[], options: { production?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand(
    {
      db,
      apiScopePrefix: "platform",
      production: options.production ?? false,
      secretKey: "s".repeat(40),
      print: (line) => out.push(line),
      printError: (line) => err.push(line),
    },
    args,
  );
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
