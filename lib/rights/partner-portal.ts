/**
 * The partner portal (/portal/developer): a software vendor's administrators and developers register their company's
 * applications and see them with their status. Every function checks the role and the company kind here, and reads
 * only the acting user's company's applications, whatever a page or form names.
 */
import "server-only";
import { ClientMetadataError } from "@/lib/admin/client-metadata";
import {
  changePartnerApplication,
  registerPartnerApplication,
  removePartnerApplication,
  type Partner,
} from "@/lib/admin/partner-applications";
import { addVendorSecret } from "@/lib/admin/partner-secrets";
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import {
  ClientRegistryError,
  disableClientSecret,
  showClient,
  usesSecrets,
  type ClientSecretInfo,
  type NewSecret,
} from "@/lib/admin/client-registry";
import { AccessDenied, requireUser, type Actor, type SignedInUser } from "@/lib/rights/actor";
import type { PartnerApplication as StoredApplication, RegisteredClient } from "@/lib/store/models/client";
import { OFFLINE_ACCESS, OPENID_SCOPES, scopeDefinitions, type ScopeDefinition } from "@/lib/oauth/scopes";

export { ClientMetadataError, ClientRegistryError };

interface PartnerApplication {
  client: RegisteredClient;
  status: string;
  changeWaiting: boolean;
  /** the RFC 7591 metadata to change: the change waiting for approval, or the registration as it is */
  metadata: Record<string, unknown>;
  reviewNote: string | null;
  /** pending or approved applications that authenticate with secrets: their secrets (never the values) */
  secrets?: ClientSecretInfo[];
}

/** A vendor prepares and rotates the secrets of its pending and approved applications; a rejected one has none. */
const hasSecrets = (status: string, client: RegisteredClient) => status !== "rejected" && usesSecrets(client);

export interface PartnerPortalView {
  company: { id: string; name: string };
  applications: PartnerApplication[];
  /** the scopes the company's applications may ask for, as the registration form offers them */
  scopes: ScopeDefinition[];
}

/** Users with role admin or developer of a software vendor company. */
export const isPartnerDeveloper = (actor: Actor): boolean =>
  actor.kind === "user" &&
  actor.company.kind === "software_vendor" &&
  (actor.session.user.role === "admin" || actor.session.user.role === "developer");

/** The acting user, an administrator or developer of a software vendor, with what the vendor is allowed. */
export async function requirePartner(actor: Actor): Promise<[SignedInUser, Partner]> {
  const user = requireUser(actor);
  if (!isPartnerDeveloper(user)) throw new AccessDenied("forbidden");
  const partner = await user.context.stores.partners.findPartner(user.company.id);
  if (!partner) throw new AccessDenied("forbidden");
  return [user, partner];
}

export async function partnerPortalView(actor: Actor): Promise<PartnerPortalView> {
  const [user, partner] = await requirePartner(actor);
  const rows = await user.context.stores.partners.list(partner.id);
  const allowed = new Set<string>([...OPENID_SCOPES, OFFLINE_ACCESS, ...partner.partnerScopes]);
  return {
    company: { id: user.company.id, name: user.company.name },
    applications: await Promise.all(
      rows.map(async ({ status, ownerCompanyId: _owner, pendingMetadata, reviewNote, ...client }) => {
        const secrets = hasSecrets(status, client)
          ? (await showClient(user.context.stores, client.id)).secrets
          : undefined;
        return {
          client,
          status,
          changeWaiting: pendingMetadata !== null,
          metadata: pendingMetadata ?? toClientMetadata(client),
          reviewNote,
          secrets,
        };
      }),
    ),
    scopes: scopeDefinitions(user.context.config.apiScopePrefix).filter((scope) => allowed.has(scope.name)),
  };
}

function parsedMetadata(metadataText: string): unknown {
  try {
    return JSON.parse(metadataText);
  } catch (error) {
    throw new ClientMetadataError(
      "invalid_client_metadata",
      `the client metadata is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/**
 * Registers an application for the user's company, pending the operator's approval: its client id and, for one that
 * authenticates with secrets, its first secret, to be shown once.
 */
export async function registerPartnerApp(
  actor: Actor,
  metadataText: string,
): Promise<{ clientId: string; secret?: NewSecret }> {
  const [user, partner] = await requirePartner(actor);
  const metadata = parsedMetadata(metadataText);
  const { clientId, secret } = await registerPartnerApplication(user.context, partner, metadata, user.session.user.id);
  return { clientId, secret };
}

/** One of the company's applications, named in a form, whatever its status; any other is refused as not found. */
async function ownApplicationRow(actor: Actor, clientId: string): Promise<[SignedInUser, Partner, StoredApplication]> {
  const [user, partner] = await requirePartner(actor);
  const row = (await user.context.stores.partners.list(partner.id)).find((candidate) => candidate.id === clientId);
  if (!row) throw new ClientRegistryError("not_found", `your company has no application "${clientId}"`);
  return [user, partner, row];
}

/**
 * Changes one of the company's applications (the whole metadata, as RFC 7592 PUT): a pending or rejected one is
 * pending again as changed; an approved one keeps working while the change waits for approval.
 */
export async function changePartnerApp(actor: Actor, clientId: string, metadataText: string): Promise<void> {
  const [user, partner, row] = await ownApplicationRow(actor, clientId);
  const metadata = parsedMetadata(metadataText);
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    throw new ClientMetadataError("invalid_client_metadata", "client metadata must be a JSON object");
  await changePartnerApplication(user.context, row, partner, metadata as Record<string, unknown>, user.session.user.id);
}

/** Removes one of the company's applications with its secrets, consents and tokens. */
export async function removePartnerApp(actor: Actor, clientId: string): Promise<void> {
  const [user, , row] = await ownApplicationRow(actor, clientId);
  if (!(await removePartnerApplication(user.context.stores, row, user.session.user.id)))
    throw new ClientRegistryError("not_found", `your company has no application "${clientId}"`);
}

/** The company's pending or approved application that uses secrets, named in a form; any other is not found. */
async function ownApplication(actor: Actor, clientId: string): Promise<SignedInUser> {
  const [user, , row] = await ownApplicationRow(actor, clientId);
  if (!hasSecrets(row.status, row))
    throw new ClientRegistryError("not_found", `your company has no application "${clientId}" with secrets`);
  return user;
}

/** A new secret for one of the company's pending or approved applications: shown once; at most two years. */
export async function addPartnerSecret(
  actor: Actor,
  clientId: string,
  options: { description?: string; expiresAt?: Date },
): Promise<NewSecret> {
  const user = await ownApplication(actor, clientId);
  return addVendorSecret(user.context.stores, clientId, options, user.session.user.id);
}

export async function disablePartnerSecret(actor: Actor, clientId: string, secretId: string): Promise<void> {
  const user = await ownApplication(actor, clientId);
  await disableClientSecret(user.context.stores, clientId, secretId, user.session.user.id);
}
