/**
 * The operator CLI: `npm run admin -- <command>`. Parses the arguments, calls the registries and
 * prints the result. Every failure is one line on stderr and a non-zero exit code; the registries' transactions make
 * sure nothing is half-written.
 */
import { ClientMetadataError } from "@/lib/admin/client-metadata";
import { ClientRegistryError } from "@/lib/admin/client-registry";
import { catalogCommand } from "@/lib/cli/catalog-cli";
import { expectArgs, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { clientsCommand } from "@/lib/cli/clients-cli";
import { COMPANIES_USAGE, companiesCommand } from "@/lib/cli/companies-cli";
import { USERS_USAGE, usersCommand } from "@/lib/cli/users-cli";
import { PARTNERS_USAGE, partnersCommand } from "@/lib/cli/partners-cli";
import { counted } from "@/lib/cli/english";
import { progressReporter } from "@/lib/cli/progress";
import { FEDERATION_USAGE, federationCommand } from "@/lib/cli/federation-cli";
import { closestName } from "@/lib/errors/did-you-mean";
import { rotateSigningKey } from "@/lib/oauth/keys/signing-keys";
import { SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";
import { type PurgeCounts } from "@/lib/store/expired-rows-store";
import { announceExpiringSecrets } from "@/lib/admin/partner-notices";

const USAGE = `usage: npm run admin -- <command>
  clients add <file.json>                       register a client from RFC 7591 client metadata
  clients list                                  list registered clients
  clients show <client_id>                      show a client's metadata and secrets
  clients secret add <client_id> [--expires <ISO 8601 date>] [--description <text>]
  clients secret disable <client_id> <secret_id>
  clients remove <client_id>                    remove a client with its secrets, consents and tokens
${COMPANIES_USAGE}
${USERS_USAGE}
${PARTNERS_USAGE}
  keys list                                     list signing keys and until when they are published
  keys rotate                                   new active signing keys; old ones stay published until their tokens expire
  keys reseal                                   seal stored private keys, app and SSO client secrets and queued mail under the newest SECRET_KEYS key
  catalogs import <file.xml>                    import a master catalog file (docs/catalog-format.md) as the
                                                catalog's next revision, not yet released
  catalogs import --url <https-url>             the same with the file at that URL, fetched as the catalog page
                                                does (https, public addresses or CATALOG_PULL_ALLOW's, up to 100 MB)
  catalogs release <supplierID> <catalogID> <revision>
                                                release an imported revision: it is listed and can be downloaded
  catalogs list <supplierID>                    a supplier's catalogs and their revisions
${FEDERATION_USAGE}
  purge                                         remove expired codes, tickets, sessions, throttle counters and
                                                used assertion ids (a batch of each; the server does this every
                                                10 minutes)`;

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
  resetRequests: "unsent password reset request",
  webauthnChallenges: "passkey challenge",
  pushedRequests: "pushed authorization request",
  deviceAuthorizations: "device sign-in request",
};

function keyState(key: { supersededAt: Date | null; retiredAt: Date | null }, now: Date): string {
  if (key.supersededAt === null) return "active";
  if (key.retiredAt && key.retiredAt > now) return `published until ${key.retiredAt.toISOString()}`;
  return "retired";
}

async function keys(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  if (command === "rotate") {
    expectArgs(rest, "keys rotate");
    for (const alg of SIGNING_ALGORITHMS) {
      const { kid, retired } = await rotateSigningKey(context.stores.signingKeys, alg, context.secretKey);
      context.print(
        `${alg}: new active key ${kid}${retired.length ? `; ${retired.join(", ")} stays published until its tokens have expired` : ""}`,
      );
    }
  } else if (command === "list") {
    expectArgs(rest, "keys list");
    const now = new Date();
    const rows = (await context.stores.signingKeys.list()).map((key) => [
      key.algorithm,
      key.id,
      key.createdAt.toISOString(),
      keyState(key, now),
    ]);
    const header = ["ALGORITHM", "KID", "CREATED", "STATE"];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
    for (const row of [header, ...rows])
      context.print(row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell)).join("  "));
  } else if (command === "reseal") {
    expectArgs(rest, "keys reseal");
    for (const [kind, counts] of Object.entries(await context.stores.maintenance.resealSecrets(context.secretKey)))
      context.print(
        `${kind}: ${counts.resealed} sealed anew, ${counts.current} under the newest key already` +
          (counts.unreadable ? `, ${counts.unreadable} sealed under a key SECRET_KEYS no longer lists` : ""),
      );
  } else {
    throw unknownCommand("keys", command, ["list", "rotate", "reseal"]);
  }
}

async function purge(context: CliContext, rest: string[]): Promise<void> {
  expectArgs(rest, "purge");
  const progress = progressReporter(context.progress, { label: "purge", noun: "expired row", print: context.print });
  const counts = await progress.track((onProgress) => context.stores.maintenance.purgeExpired({ onProgress }));
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
  if (group === "keys") return keys(context, rest);
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
