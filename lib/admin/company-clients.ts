/**
 * A company's own API clients (issue 48): backend clients (client_credentials, client_secret_basic) whose company_id
 * is the company and whose scopes are management scopes of a company (`manage.company.*`) and nothing else, so that
 * their tokens reach that company's people, invitations, sign-in and webhooks alone (lib/rights/management-client.ts).
 * Its administrators create them, add and disable their secrets and remove them; the registration goes through the
 * same metadata rules and registry as the operator's `clients add`, and each change is audited there. They need no
 * operator review: they hold no URL OptiGate calls or sends people to, and no right the administrator lacks.
 */
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import {
  addClientSecret,
  disableClientSecret,
  registerClient,
  removeClient,
  type ClientSecretInfo,
  type NewSecret,
} from "@/lib/admin/client-registry";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { DEFAULT_LANGUAGE_KEY, localizedText } from "@/lib/i18n/localized-text";
import { COMPANY_MANAGE_SCOPES, isCompanyManageScope } from "@/lib/oauth/scopes";
import type { RegisteredClient } from "@/lib/store/models/client";
import type { Stores } from "@/lib/store/stores";

/** The most API clients one company may have: enough for an ERP, a directory sync and a spare. */
export const MAX_COMPANY_API_CLIENTS = 20;
const MAX_NAME_LENGTH = 100;

export type CompanyClientProblem = "invalid_name" | "invalid_scopes" | "too_many_clients" | "not_found";

export class CompanyClientError extends OptiGateError<CompanyClientProblem> {
  constructor(
    readonly code: CompanyClientProblem,
    message: string,
  ) {
    super(message);
  }
}

/** A company's API client as its administrators see it: never a secret's value or hash. */
export interface CompanyClientJson {
  client_id: string;
  name: string;
  scopes: string[];
  created_at: string;
  secrets: {
    id: string;
    created_at: string;
    expires_at: string | null;
    disabled_at: string | null;
    last_used_at: string | null;
  }[];
}

/** What an administrator asks for: a name and the company scopes to give. */
export interface CompanyClientRequest {
  name: string;
  scopes: readonly string[];
}

/**
 * Whether a client is one of the company's own API clients: a backend client of the company holding company
 * management scopes only. A client the operator gave the company's rights on the platform API (other scopes) stays
 * the operator's to change.
 */
const isCompanyApiClient = (client: RegisteredClient, companyId: string): boolean =>
  client.kind === "backend" &&
  client.companyId === companyId &&
  client.allowedScopes.length > 0 &&
  client.allowedScopes.every(isCompanyManageScope);

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(trimmed))
    throw new CompanyClientError(
      "invalid_name",
      `the name must be 1 to ${MAX_NAME_LENGTH} characters without control characters`,
    );
  return trimmed;
}

function checkedScopes(scopes: readonly string[]): string[] {
  const chosen = [...new Set(scopes)];
  const other = chosen.find((scope) => !isCompanyManageScope(scope));
  if (other !== undefined)
    throw new CompanyClientError(
      "invalid_scopes",
      `"${other.slice(0, 80)}" is not a company scope (${COMPANY_MANAGE_SCOPES.join(", ")})`,
    );
  if (chosen.length === 0) throw new CompanyClientError("invalid_scopes", "choose at least one scope");
  // In the order the scopes are listed, whatever order they were sent in.
  return COMPANY_MANAGE_SCOPES.filter((scope) => chosen.includes(scope));
}

function companyClientJson(client: RegisteredClient, secrets: ClientSecretInfo[]): CompanyClientJson {
  const date = (value: Date | null) => value?.toISOString() ?? null;
  return {
    client_id: client.id,
    name: localizedText(client.names, DEFAULT_LANGUAGE_KEY, client.id),
    scopes: client.allowedScopes,
    created_at: client.createdAt.toISOString(),
    secrets: secrets.map((secret) => ({
      id: secret.id,
      created_at: secret.createdAt.toISOString(),
      expires_at: date(secret.expiresAt),
      disabled_at: date(secret.disabledAt),
      last_used_at: date(secret.lastUsedAt),
    })),
  };
}

/** The company's API clients with their secrets' dates, oldest first. */
export async function listCompanyClients(stores: Stores, companyId: string): Promise<CompanyClientJson[]> {
  const clients = (await stores.clientRegistry.listOfCompany(companyId)).filter((client) =>
    isCompanyApiClient(client, companyId),
  );
  const shown = await Promise.all(
    clients.map(async (client) => {
      const found = await stores.clientRegistry.findWithSecrets(client.id);
      return found && companyClientJson(found.client, found.secrets);
    }),
  );
  return shown
    .filter((client): client is CompanyClientJson => client !== null)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.client_id.localeCompare(b.client_id));
}

/**
 * Registers a company API client through the operator's metadata rules (which also refuse platform scopes with a
 * company_id) and returns it with its first secret, shown this once.
 */
export async function createCompanyClient(
  stores: Stores,
  companyId: string,
  request: CompanyClientRequest,
  options: { apiScopePrefix: string; by?: string },
): Promise<{ client: CompanyClientJson; secret: NewSecret }> {
  const name = checkedName(request.name);
  const scopes = checkedScopes(request.scopes);
  if ((await listCompanyClients(stores, companyId)).length >= MAX_COMPANY_API_CLIENTS)
    throw new CompanyClientError(
      "too_many_clients",
      `the company has ${MAX_COMPANY_API_CLIENTS} API clients already, the most it may; remove one first`,
    );
  const registration = parseClientMetadata(
    {
      client_name: name,
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_basic",
      scope: scopes.join(" "),
      company_id: companyId,
    },
    options.apiScopePrefix,
  );
  const { client, secret } = await registerClient(stores, registration, {}, options.by);
  return { client: companyClientJson(client, []), secret: secret! };
}

/** The company's API client, or CompanyClientError "not_found": another company's or the operator's is none of its. */
async function ownClient(stores: Stores, companyId: string, clientId: string): Promise<RegisteredClient> {
  const found = await stores.clientRegistry.findWithSecrets(clientId);
  if (!found || !isCompanyApiClient(found.client, companyId))
    throw new CompanyClientError("not_found", `the company has no API client "${clientId.slice(0, 80)}"`);
  return found.client;
}

/** A new secret for the client, shown this once; the old ones stay valid until disabled (rotation). */
export async function addCompanyClientSecret(
  stores: Stores,
  companyId: string,
  clientId: string,
  by?: string,
): Promise<NewSecret> {
  const client = await ownClient(stores, companyId, clientId);
  return addClientSecret(stores, client.id, {}, by);
}

export async function disableCompanyClientSecret(
  stores: Stores,
  companyId: string,
  clientId: string,
  secretId: string,
  by?: string,
): Promise<void> {
  const client = await ownClient(stores, companyId, clientId);
  await disableClientSecret(stores, client.id, secretId, by);
}

/** Removes the client with its secrets: its tokens are refused from then on (the client is no longer registered). */
export async function removeCompanyClient(
  stores: Stores,
  companyId: string,
  clientId: string,
  by?: string,
): Promise<void> {
  const client = await ownClient(stores, companyId, clientId);
  await removeClient(stores, client.id, by);
}
