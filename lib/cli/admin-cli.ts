/**
 * The operator CLI (CONTRACT §4): `npm run admin -- <command>`. Parses the arguments, calls the client registry and
 * prints the result. Every failure is one line on stderr and a non-zero exit code; the registry's transactions make
 * sure nothing is half-written.
 */
import { expectArgs, readJsonFile, UsageError } from "@/lib/cli/cli-arguments";
import { ClientMetadataError, parseClientMetadata } from "@/lib/admin/client-metadata";
import { FEDERATION_USAGE, federationCommand } from "@/lib/cli/federation-cli";
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import {
  addClientSecret,
  ClientRegistryError,
  disableClientSecret,
  registerClient,
  removeClient,
  showClient,
  type ClientSecretInfo,
} from "@/lib/admin/client-registry";
import { catalogCommand } from "@/lib/cli/catalog-cli";
import type { Db } from "@/lib/db/prisma";
import { listClients } from "@/lib/store/client-registry-store";
import { listSigningKeys } from "@/lib/store/signing-key-store";
import { purgeUntilDrained } from "@/lib/store/expired-rows-store";
import { rotateSigningKey, SIGNING_ALGORITHMS } from "@/lib/oauth/keys/signing-keys";

export interface CliContext {
  db: Db;
  apiScopePrefix: string;
  /** Production rules for registrations (key set URLs and issuers over https only). */
  production: boolean;
  secretKey: string;
  print: (line: string) => void;
  printError: (line: string) => void;
}

const USAGE = `usage: npm run admin -- <command>
  clients add <file.json>                       register a client from RFC 7591 client metadata
  clients list                                  list registered clients
  clients show <client_id>                      show a client's metadata and secrets
  clients secret add <client_id> [--expires <ISO 8601 date>] [--description <text>]
  clients secret disable <client_id> <secret_id>
  clients remove <client_id>                    remove a client with its secrets, consents and tokens
  keys list                                     list signing keys and until when they are published
  keys rotate                                   new active signing keys; old ones stay published until their tokens expire
  catalogs import <file.xml>                    import a master catalog file (docs/catalog-format.md) as the
                                                catalog's next revision, not yet released
  catalogs release <supplierID> <catalogID> <revision>
                                                release an imported revision: it is listed and can be downloaded
  catalogs list <supplierID>                    a supplier's catalogs and their revisions
${FEDERATION_USAGE}
  purge                                         remove expired codes, tickets, sessions, throttle counters and
                                                used assertion ids (a batch of each; the server does this every
                                                10 minutes)`;

function secretStatus(secret: ClientSecretInfo, now = new Date()): string {
  if (secret.disabledAt) return "disabled";
  if (secret.expiresAt && secret.expiresAt <= now) return "expired";
  return "active";
}

function parseSecretOptions(args: string[]): { expiresAt?: Date; description?: string } {
  const options: { expiresAt?: Date; description?: string } = {};
  for (let index = 0; index < args.length; index += 2) {
    const [flag, value] = [args[index], args[index + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === "--expires") {
      // A day alone means the end of that day (UTC), as on the operator pages.
      const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59Z` : value);
      if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime()))
        throw new UsageError(`--expires needs an ISO 8601 date, got "${value}"`);
      options.expiresAt = date;
    } else if (flag === "--description") {
      options.description = value;
    } else {
      throw new UsageError(`unknown option ${flag}`);
    }
  }
  return options;
}

async function clientsAdd(context: CliContext, [file]: string[]): Promise<void> {
  const registration = parseClientMetadata(await readJsonFile(file), context.apiScopePrefix, {
    production: context.production,
  });
  const { client, secret } = await registerClient(context.db, registration);
  const response = {
    ...toClientMetadata(client),
    ...(secret ? { client_secret: secret.secret, client_secret_id: secret.secretId, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
  };
  context.print(JSON.stringify(response, null, 2));
}

async function clientsList(context: CliContext): Promise<void> {
  const clients = await listClients(context.db);
  if (clients.length === 0) {
    context.print("No clients registered.");
    return;
  }
  const rows = clients.map((client) => [
    client.id,
    client.kind,
    client.grantTypes.join(","),
    client.names.en ?? client.names.default ?? "",
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length), 9));
  context.print(
    ["CLIENT_ID".padEnd(widths[0]), "KIND".padEnd(widths[1]), "GRANTS".padEnd(widths[2]), "NAME"].join("  "),
  );
  for (const row of rows)
    context.print(row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell)).join("  "));
}

async function clientsShow(context: CliContext, [clientId]: string[]): Promise<void> {
  const { client, secrets } = await showClient(context.db, clientId);
  const shown = {
    ...toClientMetadata(client),
    client_kind: client.kind,
    created_at: client.createdAt.toISOString(),
    secrets: secrets.map((secret) => ({
      id: secret.id,
      description: secret.description,
      status: secretStatus(secret),
      created_at: secret.createdAt.toISOString(),
      expires_at: secret.expiresAt?.toISOString() ?? null,
      disabled_at: secret.disabledAt?.toISOString() ?? null,
    })),
  };
  context.print(JSON.stringify(shown, null, 2));
}

async function clientsSecret(context: CliContext, [action, ...args]: string[]): Promise<void> {
  if (action === "add") {
    if (args.length < 1) throw new UsageError("clients secret add needs a client_id");
    const [clientId, ...options] = args;
    const secret = await addClientSecret(context.db, clientId, parseSecretOptions(options));
    context.print(
      JSON.stringify({ client_id: clientId, secret_id: secret.secretId, client_secret: secret.secret }, null, 2),
    );
  } else if (action === "disable") {
    const [clientId, secretId] = expectArgs(args, 2);
    await disableClientSecret(context.db, clientId, secretId);
    context.print(`Disabled secret ${secretId} of client ${clientId}.`);
  } else {
    throw new UsageError(`unknown command "clients secret ${action ?? ""}"`);
  }
}

async function keys(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  if (command === "rotate") {
    expectArgs(rest, 0);
    for (const alg of SIGNING_ALGORITHMS) {
      const { kid, retired } = await rotateSigningKey(context.db, alg, context.secretKey);
      context.print(
        `${alg}: new active key ${kid}${retired.length ? `; ${retired.join(", ")} stays published until its tokens have expired` : ""}`,
      );
    }
  } else if (command === "list") {
    expectArgs(rest, 0);
    const rows = await listSigningKeys(context.db);
    const now = new Date();
    for (const row of rows) {
      const state =
        row.supersededAt === null
          ? "active"
          : row.retiredAt && row.retiredAt > now
            ? `published until ${row.retiredAt.toISOString()}`
            : "retired";
      context.print(`${row.algorithm}  ${row.id}  created ${row.createdAt.toISOString()}  ${state}`);
    }
  } else {
    throw new UsageError(`unknown command "keys ${command ?? ""}"`);
  }
}

async function dispatch(context: CliContext, args: string[]): Promise<void> {
  const [group, command, ...rest] = args;
  if (group === "keys")
    return keys(
      context,
      [command, ...rest].filter((arg) => arg !== undefined),
    );
  if (group === "catalogs")
    return catalogCommand(
      context,
      [command, ...rest].filter((arg) => arg !== undefined),
    );
  if (group === "federation")
    return federationCommand(
      context,
      [command, ...rest].filter((arg) => arg !== undefined),
    );
  if (group === "purge") {
    expectArgs(
      [command, ...rest].filter((arg) => arg !== undefined),
      0,
    );
    const counts = await purgeUntilDrained(context.db);
    return context.print(
      `Removed ${Object.entries(counts)
        .map(([kind, count]) => `${count} ${kind}`)
        .join(", ")}.`,
    );
  }
  if (group !== "clients") throw new UsageError(group ? `unknown command "${group}"` : "no command given");
  switch (command) {
    case "add":
      return clientsAdd(context, expectArgs(rest, 1));
    case "list":
      return clientsList(context);
    case "show":
      return clientsShow(context, expectArgs(rest, 1));
    case "secret":
      return clientsSecret(context, rest);
    case "remove":
      await removeClient(context.db, expectArgs(rest, 1)[0]);
      return context.print(`Removed client ${rest[0]}.`);
    default:
      throw new UsageError(`unknown command "clients ${command ?? ""}"`);
  }
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
      context.printError(`error: ${error.message} (run "npm run admin -- help" for usage)`);
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
