/**
 * Registered clients and their secrets: register, show, add and disable secrets, remove (the list comes straight from
 * lib/store/client-registry-store.ts). Every change is one transaction together with its audit event (naming the
 * operator who made it, `by`, when it came from the operator pages), and drops the client from this process's client
 * cache. Secrets are generated here (256 bits), returned once and stored only as SHA-256 hashes.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { MAX_DESCRIPTION_LENGTH } from "@/lib/config/policy";
import { ClientMetadataError, generateClientId, parseClientMetadata } from "@/lib/admin/client-metadata";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { RECORD_FIELDS } from "@/lib/admin/client-record";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { ClientRegistration, ClientSecretInfo, RegisteredClient } from "@/lib/store/models/client";

export type { ClientSecretInfo } from "@/lib/store/models/client";
import type { Stores } from "@/lib/store/stores";
import { type NewClientSecret } from "@/lib/store/client-registry-store";
import { forgetClient } from "@/lib/store/client-store";

export class ClientRegistryError extends OptiGateError<"not_found" | "already_exists" | "invalid_state" | "changed"> {
  constructor(
    readonly code: "not_found" | "already_exists" | "invalid_state" | "changed",
    message: string,
  ) {
    super(message);
  }
}

export interface NewSecret {
  secretId: string;
  /** The only time the secret is visible. */
  secret: string;
}

export interface SecretOptions {
  description?: string;
  expiresAt?: Date;
  /** A given value, for fixed demo secrets; otherwise 256 random bits. */
  value?: string;
  /** The most usable (neither disabled nor expired) secrets the client may have, the new one included. */
  limit?: number;
}

/** Public clients have no secret, and private_key_jwt clients authenticate with their keys instead. */
export function usesSecrets(registration: { tokenEndpointAuthMethod: string }): boolean {
  return (
    registration.tokenEndpointAuthMethod === "client_secret_basic" ||
    registration.tokenEndpointAuthMethod === "client_secret_post"
  );
}

/** Checks the options of a new secret and gives it, with 256 random bits unless a value is given. */
function newSecret(options: SecretOptions): NewClientSecret {
  if (
    options.description !== undefined &&
    (options.description.length > MAX_DESCRIPTION_LENGTH || /[\u0000-\u001f]/.test(options.description))
  ) {
    throw new ClientRegistryError(
      "invalid_state",
      `a secret's description must be at most ${MAX_DESCRIPTION_LENGTH} characters on one line`,
    );
  }
  if (options.expiresAt && options.expiresAt.getTime() <= Date.now()) {
    throw new ClientRegistryError("invalid_state", "a new secret's expiry must lie in the future");
  }
  return {
    value: options.value ?? generateOpaqueToken(),
    description: options.description,
    expiresAt: options.expiresAt,
  };
}

/** A client's company must exist: the metadata names it by id. */
async function checkCompany(
  companyExists: (companyId: string) => Promise<boolean>,
  registration: ClientRegistration,
): Promise<void> {
  if (registration.companyId && !(await companyExists(registration.companyId))) {
    throw new ClientMetadataError("invalid_client_metadata", `company_id "${registration.companyId}" is no company`);
  }
}

const noClient = (clientId: string) => new ClientRegistryError("not_found", `no client with client_id "${clientId}"`);
const noSecret = (clientId: string, secretId: string) =>
  new ClientRegistryError("not_found", `client "${clientId}" has no secret with id "${secretId}"`);

/** Registers a client; confidential clients get their first secret, returned here once. */
export async function registerClient(
  stores: Stores,
  registration: ClientRegistration,
  secretOptions: SecretOptions = {},
  by?: string,
): Promise<{ client: RegisteredClient; secret?: NewSecret }> {
  const id = registration.id ?? generateClientId();
  const registered = await stores.clientRegistry
    .insert(
      id,
      registration,
      {
        checkCompany: (companyExists) => checkCompany(companyExists, registration),
        firstSecret: usesSecrets(registration) ? () => newSecret(secretOptions) : undefined,
      },
      by,
    )
    .finally(() => forgetClient(id));
  if (!registered) throw new ClientRegistryError("already_exists", `client_id "${id}" is already registered`);
  const { client, secret } = registered;
  return { client, secret: secret && { secretId: secret.secretId, secret: secret.value } };
}

/**
 * A client stays public or confidential for its life: its refresh tokens were issued to a client that authenticated
 * (as a public client's they would be bearer tokens), or to one that could not (a secret would not make them safer).
 */
export function checkClientTypeKept(
  existing: { tokenEndpointAuthMethod: string },
  registration: Pick<ClientRegistration, "tokenEndpointAuthMethod">,
): void {
  const wasPublic = existing.tokenEndpointAuthMethod === "none";
  if (wasPublic !== (registration.tokenEndpointAuthMethod === "none"))
    throw new ClientRegistryError(
      "invalid_state",
      wasPublic
        ? "a public client cannot become confidential; register a new client instead"
        : "a confidential client cannot become public; register a new client instead",
    );
}

/** The settings the metadata rules read: the platform scopes' prefix, production rules, OUTBOUND_ALLOW. */
export interface MetadataRules {
  apiScopePrefix: string;
  production: boolean;
  outboundAllow: AddressRanges;
}

/** Refuses, by throwing, a registration's scopes the one registering may not give (lib/rights/operator-clients.ts). */
export type ScopeAdmission = (scopes: readonly string[]) => void;

/**
 * Registers a client from its RFC 7591 metadata: the one path of `clients add`, the operator's registration form and
 * POST /manage/v1/clients. `admit` sees the scopes once the metadata is valid, before anything is written.
 */
export async function registerClientMetadata(
  stores: Stores,
  rules: MetadataRules,
  metadata: unknown,
  by?: string,
  admit?: ScopeAdmission,
): Promise<{ client: RegisteredClient; secret?: NewSecret }> {
  const registration = parseClientMetadata(metadata, rules.apiScopePrefix, rules);
  admit?.(registration.allowedScopes);
  return registerClient(stores, registration, {}, by);
}

/**
 * Replaces a client's registration with the metadata given: the one path of `clients update`, the operator's edit
 * form and PUT /manage/v1/clients/{clientId}. The metadata may leave client_id out; naming another is refused, as a
 * client's id never changes. A record as `clients show` prints it may be sent back: its server fields are dropped.
 * `admit` sees the new scopes once the metadata is valid, before anything is written.
 */
export async function updateClientMetadata(
  stores: Stores,
  rules: MetadataRules,
  clientId: string,
  metadata: unknown,
  by?: string,
  admit?: ScopeAdmission,
): Promise<RegisteredClient> {
  let pinned = metadata;
  if (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)) {
    const named = (metadata as Record<string, unknown>).client_id;
    if (named !== undefined && named !== clientId)
      throw new ClientMetadataError(
        "invalid_client_metadata",
        `client_id "${String(named).slice(0, 80)}" is not this client's ("${clientId}"): a client's id does not change`,
      );
    const kept = Object.entries(metadata).filter(([field]) => !(RECORD_FIELDS as readonly string[]).includes(field));
    pinned = { ...Object.fromEntries(kept), client_id: clientId };
  }
  const registration = parseClientMetadata(pinned, rules.apiScopePrefix, rules);
  admit?.(registration.allowedScopes);
  return updateClient(stores, clientId, registration, by);
}

/** Replaces a client's registration with a new one (same validation as registering); its id stays. */
export async function updateClient(
  stores: Stores,
  clientId: string,
  registration: ClientRegistration,
  by?: string,
): Promise<RegisteredClient> {
  const client = await stores.clientRegistry.replaceRegistration(
    clientId,
    registration,
    async (companyExists, existing) => {
      checkClientTypeKept(existing, registration);
      await checkCompany(companyExists, registration);
    },
    by,
  );
  if (!client) throw noClient(clientId);
  forgetClient(clientId);
  return client;
}

export async function setClientSecretExpiry(
  stores: Stores,
  clientId: string,
  secretId: string,
  expiresAt: Date | null,
  by?: string,
): Promise<void> {
  if (!(await stores.clientRegistry.setSecretExpiry(clientId, secretId, expiresAt, by)))
    throw noSecret(clientId, secretId);
  forgetClient(clientId);
}

export async function showClient(
  stores: Stores,
  clientId: string,
): Promise<{ client: RegisteredClient; secrets: ClientSecretInfo[] }> {
  const found = await stores.clientRegistry.findWithSecrets(clientId);
  if (!found) throw noClient(clientId);
  return found;
}

export async function addClientSecret(
  stores: Stores,
  clientId: string,
  options: SecretOptions = {},
  by?: string,
): Promise<NewSecret> {
  forgetClient(clientId);
  const stored = await stores.clientRegistry.insertSecret(
    clientId,
    (row, usable) => {
      if (row.tokenEndpointAuthMethod === "none") {
        throw new ClientRegistryError("invalid_state", `client "${clientId}" is a public client and has no secrets`);
      }
      if (!usesSecrets(row))
        throw new ClientRegistryError(
          "invalid_state",
          `client "${clientId}" authenticates with its keys (private_key_jwt), not with secrets`,
        );
      if (options.limit !== undefined && usable >= options.limit)
        throw new ClientRegistryError(
          "invalid_state",
          `client "${clientId}" has ${usable} usable secrets, the most it may have: disable one before creating another`,
        );
      return newSecret(options);
    },
    by,
  );
  if (stored === null) throw noClient(clientId);
  return { secretId: stored.secretId, secret: stored.value };
}

export async function disableClientSecret(
  stores: Stores,
  clientId: string,
  secretId: string,
  by?: string,
): Promise<void> {
  const outcome = await stores.clientRegistry.disableSecret(clientId, secretId, by);
  if (outcome === "no_client") throw noClient(clientId);
  if (outcome === "no_secret") throw noSecret(clientId, secretId);
  if (outcome === "already_disabled")
    throw new ClientRegistryError("invalid_state", `secret "${secretId}" is already disabled`);
  forgetClient(clientId);
}

/** Removes the client with its secrets, consents, codes and refresh tokens. */
export async function removeClient(stores: Stores, clientId: string, by?: string): Promise<void> {
  if (!(await stores.clientRegistry.remove(clientId, by))) throw noClient(clientId);
  forgetClient(clientId);
}
