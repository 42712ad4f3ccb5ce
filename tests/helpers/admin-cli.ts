/**
 * The operator CLI run in the test's process against the test's database, with what it printed and the sessions it
 * asked to announce to the applications (the server's CLI sends them back-channel logouts).
 */
import { runAdminCommand } from "@/lib/cli/admin-cli";
import { prismaStores } from "@/lib/store/stores";
import type { Db } from "@/lib/db/prisma";
import { ISSUER, SECRET_KEY } from "./oauth-service";

export async function runAdmin(
  db: Db,
  args: string[],
  options: { production?: boolean; input?: string; secretKey?: string } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const announced: string[] = [];
  const code = await runAdminCommand(
    {
      stores: prismaStores(db),
      apiScopePrefix: "platform",
      production: options.production ?? false,
      secretKey: options.secretKey ?? SECRET_KEY,
      publicUrl: ISSUER,
      print: (line) => out.push(line),
      printError: (line) => err.push(line),
      announceLogout: async (sessionIds) => void announced.push(...sessionIds),
      passwordMinLength: 12,
      readInput: async () => options.input ?? "",
    },
    args,
  );
  return { code, stdout: out.join("\n"), stdoutLines: out, stderr: err.join("\n"), stderrLines: err, announced };
}
