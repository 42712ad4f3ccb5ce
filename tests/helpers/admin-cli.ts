/**
 * The operator CLI run in the test's process against the test's database, with what it printed, what it drew as
 * progress (nothing, unless stderr is to be a terminal), and the sessions it asked to announce to the applications (the
 * server's CLI sends them back-channel logouts).
 */
import { runAdminCommand } from "@/lib/cli/admin-cli";
import { prismaStores } from "@/lib/store/stores";
import type { Db } from "@/lib/db/prisma";
import { NO_ADDRESS_RANGES, type AddressRanges } from "@/lib/config/address-ranges";
import type { PasswordBreachConfig } from "@/lib/config/password-breach-config";
import type { TxtLookup } from "@/lib/admin/domain-verification";
import { ISSUER, SECRET_KEY } from "./oauth-service";

export async function runAdmin(
  db: Db,
  args: string[],
  options: {
    production?: boolean;
    outboundAllow?: AddressRanges;
    catalogPullAllow?: AddressRanges;
    /** Where `users password` looks new passwords up (PASSWORD_BREACH_CHECK); nowhere when not given. */
    passwordBreach?: PasswordBreachConfig;
    /** stderr is a terminal: progress is drawn. */
    terminal?: boolean;
    input?: string;
    secretKey?: string;
    /** How domains are looked up in DNS; the system's resolvers when not given. */
    dnsLookup?: TxtLookup;
  } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const announced: string[] = [];
  const drawn: string[] = [];
  const code = await runAdminCommand(
    {
      stores: prismaStores(db),
      apiScopePrefix: "platform",
      production: options.production ?? false,
      outboundAllow: options.outboundAllow ?? NO_ADDRESS_RANGES,
      catalogPullAllow: options.catalogPullAllow ?? NO_ADDRESS_RANGES,
      secretKey: options.secretKey ?? SECRET_KEY,
      publicUrl: ISSUER,
      print: (line) => out.push(line),
      printError: (line) => err.push(line),
      progress: { isTTY: options.terminal ?? false, write: (text) => drawn.push(text) },
      announceLogout: async (sessionIds) => void announced.push(...sessionIds),
      passwordMinLength: 12,
      passwordBreach: options.passwordBreach ?? null,
      auditRetentionDays: 400,
      readInput: async () => options.input ?? "",
      dnsLookup: options.dnsLookup,
    },
    args,
  );
  return { code, stdout: out.join("\n"), stdoutLines: out, stderr: err.join("\n"), stderrLines: err, announced, drawn };
}
