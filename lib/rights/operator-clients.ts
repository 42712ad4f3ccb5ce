/**
 * The operator pages' and the management API's access to registered clients and their secrets (/admin/clients,
 * /manage/v1/clients): every function requires an operator or an operator's management client with the scope, so the
 * client list, metadata and secret ids reach nobody else, whichever page, form or route asks. Registrations and
 * changes go through the registry functions of `clients add|update` (lib/admin/client-registry.ts). A management
 * client changes only clients no more powerful than itself (clientWriter).
 */
import { ENDPOINTS } from "@/lib/http/paths";
import "server-only";
import { ClientMetadataError } from "@/lib/admin/client-metadata";
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import * as registry from "@/lib/admin/client-registry";
import {
  AccessDenied,
  requirePlatformAdmin,
  requirePlatformReader,
  type Actor,
  type PlatformAdmin,
} from "@/lib/rights/actor";
import { type ClientReviewState } from "@/lib/store/partner-store";
import { reviewApplication } from "@/lib/admin/partner-applications";
import type { RegisteredClient } from "@/lib/store/models/client";
import { isManageScope, scopeDefinitions, type ScopeDefinition } from "@/lib/oauth/scopes";

export { ClientMetadataError };
export type { ClientReviewState };
export { ClientRegistryError, type ClientSecretInfo, type NewSecret } from "@/lib/admin/client-registry";

export interface ClientDetails {
  client: RegisteredClient;
  /** The registration as RFC 7591 metadata, as the edit form shows it. */
  metadata: Record<string, unknown>;
  secrets: registry.ClientSecretInfo[];
  /** The company whose rights a backend client has on the platform API (client metadata company_id). */
  company?: { id: string; name: string };
  /** Where the client's developer finds the endpoints: the issuer's discovery document. */
  discoveryUrl: string;
  /** Its standing with the operator: status, owning software vendor, a change waiting. */
  review?: ClientReviewState;
}

const SCOPES = { read: "manage.clients.read", write: "manage.clients.write" };
const WRITE = SCOPES.write;

/** Client metadata: typed as JSON into a form (a text), or a JSON body's object. */
function metadataOf(metadata: string | Record<string, unknown>): unknown {
  if (typeof metadata !== "string") return metadata;
  try {
    return JSON.parse(metadata);
  } catch (error) {
    throw new ClientMetadataError(
      "invalid_client_metadata",
      `the client metadata is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/** Who changes clients, and the check of the scopes a registration would give (lib/admin/client-registry.ts). */
interface ClientWriter extends PlatformAdmin {
  admit: registry.ScopeAdmission;
}

/** The scopes that metadata (a change waiting for the operator) names, if any. */
function scopesNamed(metadata: Record<string, unknown> | null | undefined): string[] {
  return typeof metadata?.scope === "string" ? metadata.scope.trim().split(/\s+/) : [];
}

/**
 * The check of every change to clients: an operator changes any; an operator's management client with
 * manage.clients.write only a client whose management scopes (and those of a change waiting, or of the metadata it
 * sends, through `admit`) its own token holds, a company's scope counting as held with its platform twin
 * (manage.users.read holds manage.company.users.read). Otherwise manage.clients.write alone would register a client
 * with every manage.* scope, or take the secret of a broader one. A client there is not is left to the registry (404).
 */
async function clientWriter(actor: Actor, clientId?: string): Promise<ClientWriter> {
  const admin = requirePlatformAdmin(actor, WRITE);
  if (actor.kind !== "manager") return { ...admin, admit: () => undefined };
  const held = actor.scopes;
  const admit = (scopes: readonly string[]) => {
    const beyond = scopes
      .filter(isManageScope)
      .filter((scope) => !held.has(scope.replace(/^manage\.company\./, "manage.")));
    if (beyond.length > 0) throw new AccessDenied("forbidden");
  };
  const target = clientId === undefined ? null : await admin.context.stores.partners.find(clientId);
  if (target) admit([...target.allowedScopes, ...scopesNamed(target.pendingMetadata)]);
  return { ...admin, admit };
}

export async function listClients(actor: Actor): Promise<RegisteredClient[]> {
  const { context } = requirePlatformReader(actor, SCOPES);
  return context.stores.clientRegistry.list();
}

/** Every client's standing with the operator: status, the software vendor that owns it, a change waiting. */
export async function clientReviewStates(actor: Actor): Promise<Map<string, ClientReviewState>> {
  const { context } = requirePlatformReader(actor, SCOPES);
  return context.stores.partners.findReviewStates();
}

/** Approves a software vendor's pending application or change, or rejects it with a reason. */
export async function reviewClient(
  actor: Actor,
  clientId: string,
  decision: { approve: true } | { approve: false; reason: string },
  seenVersion?: string,
): Promise<void> {
  const { context, by } = await clientWriter(actor, clientId);
  await reviewApplication(context, clientId, decision, by, seenVersion);
}

/** The scopes a client may be registered for, as the registration form offers them. */
export function registrationScopes(actor: Actor): ScopeDefinition[] {
  const { context } = requirePlatformReader(actor, SCOPES);
  return scopeDefinitions(context.config.apiScopePrefix);
}

/** One client with its secrets (never their values), or undefined when there is no such client. */
export async function clientDetails(actor: Actor, clientId: string): Promise<ClientDetails | undefined> {
  const { context } = requirePlatformReader(actor, SCOPES);
  try {
    const { client, secrets } = await registry.showClient(context.stores, clientId);
    const company = client.companyId ? await context.stores.companies.find(client.companyId) : null;
    return {
      client,
      metadata: toClientMetadata(client),
      secrets,
      company: company ? { id: company.id, name: company.name } : undefined,
      discoveryUrl: `${context.config.publicUrl}${ENDPOINTS.discovery}`,
      review: (await context.stores.partners.findReviewStates([clientId])).get(clientId),
    };
  } catch (error) {
    if (error instanceof registry.ClientRegistryError && error.code === "not_found") return undefined;
    throw error;
  }
}

/** Registers a client from its metadata (the form's JSON text, or the API's object); a secret is returned once. */
export async function registerClient(
  actor: Actor,
  metadata: string | Record<string, unknown>,
): Promise<{ client: RegisteredClient; secret?: registry.NewSecret }> {
  const { context, by, admit } = await clientWriter(actor);
  return registry.registerClientMetadata(context.stores, context.config, metadataOf(metadata), by, admit);
}

/** Replaces a client's metadata, as `clients update` does. */
export async function updateClient(
  actor: Actor,
  clientId: string,
  metadata: string | Record<string, unknown>,
): Promise<RegisteredClient> {
  const { context, by, admit } = await clientWriter(actor, clientId);
  return registry.updateClientMetadata(context.stores, context.config, clientId, metadataOf(metadata), by, admit);
}

export async function removeClient(actor: Actor, clientId: string): Promise<void> {
  const { context, by } = await clientWriter(actor, clientId);
  await registry.removeClient(context.stores, clientId, by);
}

export async function addClientSecret(
  actor: Actor,
  clientId: string,
  options: { expiresAt?: Date; description?: string },
): Promise<registry.NewSecret> {
  const { context, by } = await clientWriter(actor, clientId);
  return registry.addClientSecret(context.stores, clientId, options, by);
}

export async function setClientSecretExpiry(
  actor: Actor,
  clientId: string,
  secretId: string,
  expiresAt: Date | null,
): Promise<void> {
  const { context, by } = await clientWriter(actor, clientId);
  await registry.setClientSecretExpiry(context.stores, clientId, secretId, expiresAt, by);
}

export async function disableClientSecret(actor: Actor, clientId: string, secretId: string): Promise<void> {
  const { context, by } = await clientWriter(actor, clientId);
  await registry.disableClientSecret(context.stores, clientId, secretId, by);
}
