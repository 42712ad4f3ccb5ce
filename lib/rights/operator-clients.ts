/**
 * The operator pages' access to registered clients and their secrets: every function requires an operator, so the
 * client list, metadata and secret ids reach nobody else, whichever page, form or route asks.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import "server-only";
import { ClientMetadataError, parseClientMetadata } from "@/lib/admin/client-metadata";
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import * as registry from "@/lib/admin/client-registry";
import { requireOperator, type Actor } from "@/lib/rights/actor";
import { type ClientReviewState } from "@/lib/store/partner-store";
import { reviewApplication } from "@/lib/admin/partner-applications";
import type { RegisteredClient } from "@/lib/store/models/client";
import type { Config } from "@/lib/config";
import { scopeDefinitions, type ScopeDefinition } from "@/lib/oauth/scopes";

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

/** Client metadata typed as JSON into a form; `clientId` pins the id when an existing client is edited. */
function parseMetadataText(
  text: string,
  config: Pick<Config, "apiScopePrefix" | "production" | "outboundAllow">,
  clientId?: string,
) {
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch (error) {
    throw new ClientMetadataError(
      "invalid_client_metadata",
      `the client metadata is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (clientId !== undefined && typeof metadata === "object" && metadata !== null)
    (metadata as Record<string, unknown>).client_id = clientId;
  return parseClientMetadata(metadata, config.apiScopePrefix, config);
}

export async function listClients(actor: Actor): Promise<RegisteredClient[]> {
  const { context } = requireOperator(actor);
  return context.stores.clientRegistry.list();
}

/** Every client's standing with the operator: status, the software vendor that owns it, a change waiting. */
export async function clientReviewStates(actor: Actor): Promise<Map<string, ClientReviewState>> {
  const { context } = requireOperator(actor);
  return context.stores.partners.findReviewStates();
}

/** Approves a software vendor's pending application or change, or rejects it with a reason. */
export async function reviewClient(
  actor: Actor,
  clientId: string,
  decision: { approve: true } | { approve: false; reason: string },
  seenVersion?: string,
): Promise<void> {
  const { context, session } = requireOperator(actor);
  await reviewApplication(context, clientId, decision, session.user.id, seenVersion);
}

/** The scopes a client may be registered for, as the registration form offers them. */
export function registrationScopes(actor: Actor): ScopeDefinition[] {
  const { context } = requireOperator(actor);
  return scopeDefinitions(context.config.apiScopePrefix);
}

/** One client with its secrets (never their values), or undefined when there is no such client. */
export async function clientDetails(actor: Actor, clientId: string): Promise<ClientDetails | undefined> {
  const { context } = requireOperator(actor);
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

export async function registerClient(
  actor: Actor,
  metadataText: string,
): Promise<{ client: RegisteredClient; secret?: registry.NewSecret }> {
  const { context, session } = requireOperator(actor);
  return registry.registerClient(context.stores, parseMetadataText(metadataText, context.config), {}, session.user.id);
}

export async function updateClient(actor: Actor, clientId: string, metadataText: string): Promise<void> {
  const { context, session } = requireOperator(actor);
  await registry.updateClient(
    context.stores,
    clientId,
    parseMetadataText(metadataText, context.config, clientId),
    session.user.id,
  );
}

export async function removeClient(actor: Actor, clientId: string): Promise<void> {
  const { context, session } = requireOperator(actor);
  await registry.removeClient(context.stores, clientId, session.user.id);
}

export async function addClientSecret(
  actor: Actor,
  clientId: string,
  options: { expiresAt?: Date; description?: string },
): Promise<registry.NewSecret> {
  const { context, session } = requireOperator(actor);
  return registry.addClientSecret(context.stores, clientId, options, session.user.id);
}

export async function setClientSecretExpiry(
  actor: Actor,
  clientId: string,
  secretId: string,
  expiresAt: Date | null,
): Promise<void> {
  const { context, session } = requireOperator(actor);
  await registry.setClientSecretExpiry(context.stores, clientId, secretId, expiresAt, session.user.id);
}

export async function disableClientSecret(actor: Actor, clientId: string, secretId: string): Promise<void> {
  const { context, session } = requireOperator(actor);
  await registry.disableClientSecret(context.stores, clientId, secretId, session.user.id);
}
