/** `npm run admin -- clients …`: register, list, show, update and remove clients, add and disable secrets. */
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import { clientRecord } from "@/lib/admin/client-record";
import {
  addClientSecret,
  disableClientSecret,
  registerClientMetadata,
  removeClient,
  showClient,
  updateClientMetadata,
} from "@/lib/admin/client-registry";
import { expectArgs, readJsonFile, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { parseInstant } from "@/lib/http/calendar-instant";
import type { ClientKind } from "@/lib/store/models/client";
import { reviewCommand } from "@/lib/cli/partners-cli";
import { printList, withoutJsonFlag } from "@/lib/cli/list-output";
import { type ClientReviewState } from "@/lib/store/partner-store";

export const CLIENTS_USAGE = `  clients add <file.json>                       register a client from RFC 7591 client metadata
  clients list [--json]                         list registered clients
  clients show <client_id>                      show a client's metadata and secrets
  clients update <client_id> <file.json>        replace a client's metadata (the file as clients show prints it,
                                                or as clients add takes it; client_id may be left out)
  clients secret add <client_id> [--expires <ISO 8601 date>] [--description <text>]
  clients secret disable <client_id> <secret_id>
  clients remove <client_id>                    remove a client with its secrets, consents and tokens`;

/**
 * A secret is printed once and stored only as its hash. The note goes to stderr, ahead of the JSON on stdout, so
 * that the JSON stays what scripts parse.
 */
const SECRET_NOTE = "Save the client_secret below now: it is shown only this once (OptiGate keeps only its hash).";

const SECRET_ADD_USAGE = "clients secret add <client_id> [--expires <ISO 8601 date>] [--description <text>]";

/** The kinds as the operator pages and docs/operator-cli.md name them. */
const KIND_NAMES: Record<ClientKind, string> = {
  browser: "browser app",
  native: "native app",
  web: "server web app",
  backend: "backend service",
};

function parseSecretOptions(args: string[]): { expiresAt?: Date; description?: string } {
  const options: { expiresAt?: Date; description?: string } = {};
  for (let index = 0; index < args.length; index += 2) {
    const [flag, value] = [args[index], args[index + 1]];
    if (flag !== "--expires" && flag !== "--description")
      throw new UsageError(`unknown option ${flag} (clients secret add takes --expires and --description)`);
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === "--expires") {
      // A day alone means the end of that day (UTC), as on the operator pages.
      const date = parseInstant(value, "last-second");
      if (!date)
        throw new UsageError(
          `--expires needs an ISO 8601 date (YYYY-MM-DD, or an RFC 3339 date-time) within the years 1…9999, got "${value}"`,
        );
      options.expiresAt = date;
    } else {
      options.description = value;
    }
  }
  return options;
}

async function clientsAdd(context: CliContext, [file]: string[]): Promise<void> {
  const { client, secret } = await registerClientMetadata(context.stores, context, await readJsonFile(file));
  const response = {
    ...toClientMetadata(client),
    client_kind: client.kind,
    ...(secret ? { client_secret: secret.secret, client_secret_id: secret.secretId, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
  };
  context.printError(`Registered ${client.id} as a ${KIND_NAMES[client.kind]}.`);
  if (secret) context.printError(SECRET_NOTE);
  context.print(JSON.stringify(response, null, 2));
}

/** A client's standing with the operator: approved, pending or rejected, and whether a vendor's change waits. */
const standing = (review: ClientReviewState | undefined) =>
  `${review?.status ?? "approved"}${review?.pendingMetadata ? "+change" : ""}`;

async function clientsList(context: CliContext, json: boolean): Promise<void> {
  const [clients, reviews] = await Promise.all([
    context.stores.clientRegistry.list(),
    context.stores.partners.findReviewStates(),
  ]);
  printList(context.print, json, {
    json: clients.map((client) => clientRecord(client, reviews.get(client.id))),
    header: ["CLIENT_ID", "KIND", "GRANTS", "STATUS", "NAME"],
    rows: clients.map((client) => [
      client.id,
      client.kind,
      client.grantTypes.join(","),
      standing(reviews.get(client.id)),
      client.names.en ?? client.names.default ?? "",
    ]),
    empty: "No clients registered.",
  });
}

async function clientsShow(context: CliContext, [clientId]: string[]): Promise<void> {
  const { client, secrets } = await showClient(context.stores, clientId);
  const review = (await context.stores.partners.findReviewStates([clientId])).get(clientId);
  context.print(JSON.stringify(clientRecord(client, review, secrets), null, 2));
}

/** Replaces the metadata with the file's, through the operator's edit form's and the management API's path. */
async function clientsUpdate(context: CliContext, [clientId, file]: string[]): Promise<void> {
  const client = await updateClientMetadata(context.stores, context, clientId, await readJsonFile(file));
  context.printError(`Updated ${client.id} (${KIND_NAMES[client.kind]}).`);
  context.print(JSON.stringify(toClientMetadata(client), null, 2));
}

async function clientsSecret(context: CliContext, [action, ...args]: string[]): Promise<void> {
  if (action === "add") {
    const optionsAt = args.findIndex((arg) => arg.startsWith("--"));
    const positional = optionsAt < 0 ? args : args.slice(0, optionsAt);
    const [clientId] = expectArgs(positional, SECRET_ADD_USAGE);
    const secret = await addClientSecret(context.stores, clientId, parseSecretOptions(args.slice(positional.length)));
    context.printError(SECRET_NOTE);
    context.print(
      JSON.stringify({ client_id: clientId, secret_id: secret.secretId, client_secret: secret.secret }, null, 2),
    );
  } else if (action === "disable") {
    const [clientId, secretId] = expectArgs(args, "clients secret disable <client_id> <secret_id>");
    await disableClientSecret(context.stores, clientId, secretId);
    context.print(`Disabled secret ${secretId} of client ${clientId}.`);
  } else {
    throw unknownCommand("clients secret", action, ["add", "disable"]);
  }
}

export async function clientsCommand(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  switch (command) {
    case "add":
      return clientsAdd(context, expectArgs(rest, "clients add <file.json>"));
    case "list": {
      const { json, args } = withoutJsonFlag(rest);
      expectArgs(args, "clients list [--json]");
      return clientsList(context, json);
    }
    case "show":
      return clientsShow(context, expectArgs(rest, "clients show <client_id>"));
    case "update":
      return clientsUpdate(context, expectArgs(rest, "clients update <client_id> <file.json>"));
    case "secret":
      return clientsSecret(context, rest);
    case "remove": {
      const [clientId] = expectArgs(rest, "clients remove <client_id>");
      await removeClient(context.stores, clientId);
      return context.print(`Removed client ${clientId}.`);
    }
    case "approve":
    case "reject":
      return reviewCommand(context, command, rest);
    default:
      throw unknownCommand("clients", command, [
        "add",
        "list",
        "show",
        "secret",
        "remove",
        "update",
        "approve",
        "reject",
      ]);
  }
}
