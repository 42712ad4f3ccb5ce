/**
 * The operator CLI: `npm run admin -- <command>`. Parses the arguments, calls the registries and
 * prints the result. Every failure is one line on stderr and a non-zero exit code; the registries' transactions make
 * sure nothing is half-written.
 */
import { ClientMetadataError } from "@/lib/admin/client-metadata";
import { ClientRegistryError } from "@/lib/admin/client-registry";
import { catalogCommand } from "@/lib/cli/catalog-cli";
import { expectArgs, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { CLIENTS_USAGE, clientsCommand } from "@/lib/cli/clients-cli";
import { KEYS_USAGE, keysCommand } from "@/lib/cli/keys-cli";
import { COMPANIES_USAGE, companiesCommand } from "@/lib/cli/companies-cli";
import { USERS_USAGE, usersCommand } from "@/lib/cli/users-cli";
import { PARTNERS_USAGE, partnersCommand } from "@/lib/cli/partners-cli";
import { counted } from "@/lib/cli/english";
import { progressReporter } from "@/lib/cli/progress";
import { FEDERATION_USAGE, federationCommand } from "@/lib/cli/federation-cli";
import { closestName } from "@/lib/errors/did-you-mean";
import { type PurgeCounts } from "@/lib/store/expired-rows-store";
import { announceExpiringSecrets } from "@/lib/admin/partner-notices";

const USAGE = `usage: npm run admin -- <command>      (a list prints a table; with --json, JSON for scripts)
${CLIENTS_USAGE}
${COMPANIES_USAGE}
${USERS_USAGE}
${PARTNERS_USAGE}
${KEYS_USAGE}
  catalogs import <file.xml>                    import a master catalog file (docs/catalog-format.md) as the
                                                catalog's next revision, not yet released
  catalogs import --url <https-url>             the same with the file at that URL, fetched as the catalog page
                                                does (https, public addresses or CATALOG_PULL_ALLOW's, up to 100 MB)
  catalogs release <supplierID> <catalogID> <revision>
                                                release an imported revision: it is listed and can be downloaded
  catalogs list <supplierID> [--json]           a supplier's catalogs and their revisions
${FEDERATION_USAGE}
  purge                                         remove expired codes, tickets, sessions, throttle counters,
                                                used assertion ids and audit events older than AUDIT_RETENTION_DAYS
                                                (in batches; the server does this every 10 minutes)`;

const GROUPS = ["clients", "companies", "users", "partners", "keys", "catalogs", "federation", "purge", "help"];

/** What `purge` removes, in words. */
const PURGED: Record<keyof PurgeCounts, string> = {
  refreshTokens: "refresh token",
  authorizationCodes: "authorization code",
  tickets: "ticket",
  interactions: "sign-in prompt",
  loginSessions: "sign-in session",
  throttles: "throttle counter",
  usedAssertions: "used assertion id",
  accountLinks: "account link",
  signInNotices: "sign-in notice link",
  resetRequests: "unsent password reset request",
  webauthnChallenges: "passkey challenge",
  pushedRequests: "pushed authorization request",
  deviceAuthorizations: "device sign-in request",
  auditEvents: "old audit event",
};

async function purge(context: CliContext, rest: string[]): Promise<void> {
  expectArgs(rest, "purge");
  const progress = progressReporter(context.progress, { label: "purge", noun: "expired row", print: context.print });
  const counts = await progress.track((onProgress) =>
    context.stores.maintenance.purgeExpired({ onProgress, auditRetentionDays: context.auditRetentionDays }),
  );
  const removed = (Object.keys(PURGED) as (keyof PurgeCounts)[]).map((kind) => counted(counts[kind], PURGED[kind]));
  progress.finish(`Removed ${removed.join(", ")}.`);
  const announced = await announceExpiringSecrets({ stores: context.stores, config: context });
  if (announced > 0) context.print(`Told software vendors of ${counted(announced, "secret")} expiring soon.`);
}

async function dispatch(context: CliContext, [group, ...rest]: string[]): Promise<void> {
  if (group === "clients") return clientsCommand(context, rest);
  if (group === "companies") return companiesCommand(context, rest);
  if (group === "users") return usersCommand(context, rest);
  if (group === "partners") return partnersCommand(context, rest);
  if (group === "keys") return keysCommand(context, rest);
  if (group === "catalogs") return catalogCommand(context, rest);
  if (group === "federation") return federationCommand(context, rest);
  if (group === "purge") return purge(context, rest);
  const closest = closestName(group, GROUPS);
  const meant = [closest, ...rest.slice(0, 1)].join(" ");
  const given = [group, ...rest.slice(0, 1)].join(" ");
  throw new UsageError(`unknown command "${given}"`, closest ? `did you mean "${meant}"?` : undefined);
}

/** Runs one CLI command; returns the process exit code. */
export async function runAdminCommand(context: CliContext, args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === "help" || args[0] === "--help") {
    context.print(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  try {
    await dispatch(context, args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.printError(`error: ${error.message} (${error.hint ?? 'run "npm run admin -- help" for usage'})`);
      return 2;
    }
    if (error instanceof ClientMetadataError) {
      context.printError(`error: ${error.code}: ${error.message}`);
      return 1;
    }
    if (error instanceof ClientRegistryError || error instanceof Error) {
      context.printError(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
