/**
 * The partner portal (/portal/developer): a software vendor's administrators and developers register their company's
 * applications and see them with their status. Every function checks the role and the company kind here, and reads
 * only the acting user's company's applications, whatever a page or form names.
 */
import "server-only";
import { ClientMetadataError } from "@/lib/admin/client-metadata";
import { registerPartnerApplication } from "@/lib/admin/partner-applications";
import {
  addClientSecret,
  ClientRegistryError,
  disableClientSecret,
  showClient,
  type ClientSecretInfo,
  type NewSecret,
} from "@/lib/admin/client-registry";
import { AccessDenied, requireUser, type Actor, type SignedInUser } from "@/lib/rights/actor";
import type { RegisteredClient } from "@/lib/oauth/clients/client-record";
import { OFFLINE_ACCESS, OPENID_SCOPES, scopeDefinitions, type ScopeDefinition } from "@/lib/oauth/scopes";
import { registeredClientFromRow } from "@/lib/store/client-store";
import { findPartner, listPartnerClients } from "@/lib/store/partner-store";

export { ClientMetadataError, ClientRegistryError };

interface PartnerApplication {
  client: RegisteredClient;
  status: string;
  changeWaiting: boolean;
  reviewNote: string | null;
  /** approved applications that authenticate with secrets: their secrets (never the values) */
  secrets?: ClientSecretInfo[];
}

/** The longest a partner's secret may live: rotation is expected at least every two years. */
const LONGEST_SECRET_DAYS = 2 * 366;

const usesSecrets = (client: RegisteredClient) =>
  client.tokenEndpointAuthMethod === "client_secret_basic" || client.tokenEndpointAuthMethod === "client_secret_post";

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

async function requirePartner(actor: Actor): Promise<[SignedInUser, { id: string; partnerScopes: string[] }]> {
  const user = requireUser(actor);
  if (!isPartnerDeveloper(user)) throw new AccessDenied("forbidden");
  const partner = await findPartner(user.context.db, user.company.id);
  if (!partner) throw new AccessDenied("forbidden");
  return [user, partner];
}

export async function partnerPortalView(actor: Actor): Promise<PartnerPortalView> {
  const [user, partner] = await requirePartner(actor);
  const rows = await listPartnerClients(user.context.db, partner.id);
  const allowed = new Set<string>([...OPENID_SCOPES, OFFLINE_ACCESS, ...partner.partnerScopes]);
  return {
    company: { id: user.company.id, name: user.company.name },
    applications: await Promise.all(
      rows.map(async (row) => {
        const client = registeredClientFromRow(row);
        const secrets =
          row.status === "approved" && usesSecrets(client)
            ? (await showClient(user.context.db, client.id)).secrets
            : undefined;
        return {
          client,
          status: row.status,
          changeWaiting: row.pendingMetadata !== null,
          reviewNote: row.reviewNote,
          secrets,
        };
      }),
    ),
    scopes: scopeDefinitions(user.context.config.apiScopePrefix).filter((scope) => allowed.has(scope.name)),
  };
}

/** Registers an application for the user's company, pending the operator's approval; its client id. */
export async function registerPartnerApp(actor: Actor, metadataText: string): Promise<string> {
  const [user, partner] = await requirePartner(actor);
  let metadata: unknown;
  try {
    metadata = JSON.parse(metadataText);
  } catch (error) {
    throw new ClientMetadataError(
      "invalid_client_metadata",
      `the client metadata is not valid JSON: ${(error as Error).message}`,
    );
  }
  const registered = await registerPartnerApplication(user.context, partner, metadata, user.session.user.id);
  return String((registered as Record<string, unknown>).client_id);
}

/** The company's approved application that uses secrets, named in a form; anything else is refused as not found. */
async function ownApplication(actor: Actor, clientId: string): Promise<SignedInUser> {
  const [user, partner] = await requirePartner(actor);
  const rows = await listPartnerClients(user.context.db, partner.id);
  const row = rows.find((candidate) => candidate.id === clientId);
  if (!row || row.status !== "approved" || !usesSecrets(registeredClientFromRow(row)))
    throw new ClientRegistryError("not_found", `your company has no approved application "${clientId}" with secrets`);
  return user;
}

/** A new secret for one of the company's approved applications: shown once; at most two years. */
export async function addPartnerSecret(
  actor: Actor,
  clientId: string,
  options: { description?: string; expiresAt?: Date },
): Promise<NewSecret> {
  const user = await ownApplication(actor, clientId);
  if (options.expiresAt && options.expiresAt.getTime() > Date.now() + LONGEST_SECRET_DAYS * 86_400_000)
    throw new ClientRegistryError("invalid_state", "a secret's expiry must lie within two years");
  return addClientSecret(user.context.db, clientId, options, user.session.user.id);
}

export async function disablePartnerSecret(actor: Actor, clientId: string, secretId: string): Promise<void> {
  const user = await ownApplication(actor, clientId);
  await disableClientSecret(user.context.db, clientId, secretId, user.session.user.id);
}
