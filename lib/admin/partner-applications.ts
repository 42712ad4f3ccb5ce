/**
 * Applications software vendors register themselves (RFC 7591, RFC 7592, the partner portal), checked by the same
 * module as `clients add` (lib/admin/client-metadata.ts) and then by what only the operator may decide: a vendor asks
 * for the OpenID scopes and the platform scopes the operator allowed its company, names as `allowed_resources` only
 * its own APIs the operator allowed it (RFC 8707), redirects over plain http only to loopback, and sets neither
 * `company_id` nor `resource_server`. A new application is pending until the operator
 * approves it; a change to an approved one waits beside it, and the approved version keeps working meanwhile.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { ClientMetadataError, generateClientId, parseClientMetadata } from "@/lib/admin/client-metadata";
import type { PartnerRuleRefusal } from "@/lib/admin/client-metadata-error";
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import { checkClientTypeKept, ClientRegistryError, type NewSecret } from "@/lib/admin/client-registry";
import { firstPartnerSecret, secretFields } from "@/lib/admin/partner-secrets";
import { MAX_PARTNER_APPLICATIONS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Stores } from "@/lib/store/stores";
import type { ClientRegistration, PartnerApplication, VendorAllowance } from "@/lib/store/models/client";
import { OFFLINE_ACCESS, OPENID_SCOPES } from "@/lib/oauth/scopes";
import { forgetClient } from "@/lib/store/client-store";
import { mailToVendor } from "@/lib/admin/partner-notices";

/** The vendor a registration is made for, with what the operator allowed its applications. */
export type Partner = VendorAllowance;

type PartnerContext = { stores: Stores; config: { apiScopePrefix: string; publicUrl: string } };

const IDENTITY_SCOPES: readonly string[] = [...OPENID_SCOPES, OFFLINE_ACCESS];
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** What the server sets in RFC 7591/7592 answers; a client sending them back in an update is not refused for it. */
const SERVER_FIELDS = [
  "registration_access_token",
  "registration_client_uri",
  "client_id_issued_at",
  "client_secret",
  "client_secret_expires_at",
  "status",
];

function refuse(code: ClientMetadataError["code"], message: string, partnerRule?: PartnerRuleRefusal): never {
  throw new ClientMetadataError(code, message, partnerRule);
}

function checkPlainHttp(uris: string[], field: "redirect_uris" | "post_logout_redirect_uris"): void {
  for (const uri of uris)
    if (uri.startsWith("http:") && !LOOPBACK.has(new URL(uri).hostname))
      refuse("invalid_redirect_uri", `"${uri}" uses plain http on a host other than this computer (use https)`, {
        rule: "plain_http",
        field,
        value: uri,
      });
}

function checkPartnerRules(registration: ClientRegistration, partner: Partner): void {
  if (registration.companyId !== null) refuse("invalid_client_metadata", "company_id is set by OptiGate's operators");
  if (registration.resourceServer)
    refuse("invalid_client_metadata", "resource_server is granted by OptiGate's operators");
  const beyond = registration.allowedScopes.filter(
    (scope) => !IDENTITY_SCOPES.includes(scope) && !partner.partnerScopes.includes(scope),
  );
  if (beyond.length > 0)
    refuse(
      "invalid_client_metadata",
      `scope ${beyond.map((scope) => `"${scope}"`).join(", ")} is not among those your company may ask for` +
        ` (${[...IDENTITY_SCOPES, ...partner.partnerScopes].join(" ")})`,
      { rule: "scope_not_allowed", field: "scope", value: beyond.join(" ") },
    );
  const foreign = registration.allowedResources.find((resource) => !partner.partnerResources.includes(resource));
  if (foreign !== undefined)
    refuse(
      "invalid_client_metadata",
      `allowed_resources "${foreign}" is not among your company's APIs that OptiGate's operators allowed` +
        ` (${partner.partnerResources.join(" ") || "none"}); the platform API and the catalog services need no entry`,
      { rule: "resource_not_allowed", field: "allowed_resources", value: foreign },
    );
  checkPlainHttp(registration.redirectUris, "redirect_uris");
  checkPlainHttp(registration.postLogoutRedirectUris, "post_logout_redirect_uris");
}

/** Checks a vendor's metadata as `clients add` does, then by the vendor's rules. */
function parsePartnerMetadata(metadata: unknown, partner: Partner, apiScopePrefix: string): ClientRegistration {
  const registration = parseClientMetadata(metadata, apiScopePrefix, { production: true });
  checkPartnerRules(registration, partner);
  return registration;
}

/** RFC 7591/7592's answer: the metadata, the management URI, and the status OptiGate adds. */
export function registrationResponse(row: PartnerApplication, publicUrl: string, registrationAccessToken?: string) {
  return {
    ...toClientMetadata(row),
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    registration_client_uri: `${publicUrl}${ENDPOINTS.register}?${new URLSearchParams({ client_id: row.id })}`,
    ...(registrationAccessToken ? { registration_access_token: registrationAccessToken } : {}),
    status: row.status,
    ...(row.pendingMetadata ? { pending_changes: row.pendingMetadata } : {}),
    ...(row.reviewNote ? { review_note: row.reviewNote } : {}),
  };
}

/** A registration as the vendor gets it: RFC 7591's answer, and the application's first secret if it uses secrets. */
export interface PartnerRegistration {
  clientId: string;
  answer: Record<string, unknown>;
  secret?: NewSecret;
}

/** The shape of the ids OptiGate generates for clients and people (UUIDs), which a vendor may not choose. */
const GENERATED_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Registers a pending application for the vendor, in one transaction with the first secret of an application that
 * authenticates with secrets; the answer carries its registration access token and that secret, once.
 */
export async function registerPartnerApplication(
  context: PartnerContext,
  partner: Partner,
  metadata: unknown,
  by?: string,
): Promise<PartnerRegistration> {
  const registration = parsePartnerMetadata(metadata, partner, context.config.apiScopePrefix);
  // "callback" would be the page of OptiGate's own try-it redirect URI, /portal/developer/callback.
  if (registration.id !== undefined && (GENERATED_ID_SHAPE.test(registration.id) || registration.id === "callback"))
    refuse("invalid_client_metadata", "this client_id is OptiGate's to give: choose another or leave it out", {
      rule: "client_id_taken",
      field: "client_id",
      value: registration.id,
    });
  const id = registration.id ?? generateClientId();
  const token = generateOpaqueToken();
  const firstSecret = firstPartnerSecret(registration);
  const row = await context.stores.partners.insertPending(
    { ...registration, id },
    { companyId: partner.id, registrationTokenHash: hashToken(token), limit: MAX_PARTNER_APPLICATIONS },
    by,
    firstSecret,
  );
  if (row === "too_many")
    refuse(
      "invalid_client_metadata",
      `your company has ${MAX_PARTNER_APPLICATIONS} applications: remove one before registering another`,
    );
  if (row === "taken")
    refuse("invalid_client_metadata", `client_id "${id}" is taken`, {
      rule: "client_id_taken",
      field: "client_id",
      value: id,
    });
  const answer = registrationResponse(row.application, context.config.publicUrl, token);
  if (!firstSecret || !row.secret) return { clientId: id, answer };
  return {
    clientId: id,
    answer: { ...answer, ...secretFields(firstSecret.value, firstSecret.expiresAt) },
    secret: { secretId: row.secret.secretId, secret: row.secret.value },
  };
}

/** The application a registration access token manages, if the token is its (RFC 7592 §3: otherwise 401). */
export async function applicationOfToken(
  stores: Stores,
  clientId: string,
  token: string | undefined,
): Promise<PartnerApplication | null> {
  if (!token || token.length > 200) return null;
  const client = await stores.partners.findByRegistrationToken(hashToken(token));
  return client?.id === clientId ? client : null;
}

/** An approved client's change keeps it public or confidential, refused as the vendor's metadata error. */
function keepClientType(client: PartnerApplication, registration: ClientRegistration): void {
  try {
    checkClientTypeKept(client, registration);
  } catch (error) {
    if (error instanceof ClientRegistryError) refuse("invalid_client_metadata", error.message);
    throw error;
  }
}

/** RFC 7592 PUT: the whole metadata again; pending again until approved (an approved version keeps working). */
export async function changePartnerApplication(
  context: PartnerContext,
  client: PartnerApplication,
  partner: Partner,
  metadata: Record<string, unknown>,
  by?: string,
) {
  const given = Object.fromEntries(Object.entries(metadata).filter(([name]) => !SERVER_FIELDS.includes(name)));
  if (given.client_id !== client.id) refuse("invalid_client_metadata", `client_id must be "${client.id}"`);
  const registration = parsePartnerMetadata(given, partner, context.config.apiScopePrefix);
  if (client.status === "approved") keepClientType(client, registration);
  const row = await context.stores.partners.saveChange(client, { registration, metadata: given }, by);
  return registrationResponse(row, context.config.publicUrl);
}

/** Removes a vendor's application (RFC 7592 DELETE, the portal); false when it is gone already. */
export async function removePartnerApplication(
  stores: Stores,
  client: PartnerApplication,
  by?: string,
): Promise<boolean> {
  const removed = await stores.clientRegistry.remove(client.id, by, { by: "registration" });
  forgetClient(client.id);
  return removed;
}

/**
 * The operator approves a pending application or change, or rejects it with a reason. A waiting change is checked
 * again against the vendor's allowance as it is now. `seenVersion` (the version the operator's page showed) refuses
 * a decision on something the vendor changed since; the store refuses one changed while this decision is made.
 */
export async function reviewApplication(
  context: PartnerContext & { config: { secretKey: string } },
  clientId: string,
  decision: { approve: true } | { approve: false; reason: string },
  by?: string,
  seenVersion?: string,
): Promise<PartnerApplication> {
  const client = await context.stores.partners.find(clientId);
  if (!client) throw new ClientRegistryError("not_found", `no client with client_id "${clientId}"`);
  if (seenVersion !== undefined && seenVersion !== client.updatedAt.toISOString()) throw changedMeanwhile(clientId);
  const partner = client.ownerCompanyId ? await context.stores.partners.findPartner(client.ownerCompanyId) : null;
  if (decision.approve && client.pendingMetadata && !partner)
    throw new ClientRegistryError("invalid_state", `client "${clientId}" belongs to no software vendor any more`);
  if (decision.approve && partner && !partner.active)
    throw new ClientRegistryError("invalid_state", `the software vendor of "${clientId}" is deactivated`);
  // A new registration is checked again too: the vendor's allowance may have shrunk since it was sent.
  if (decision.approve && partner && client.status === "pending" && !client.pendingMetadata)
    checkPartnerRules(client, partner);
  const registration =
    decision.approve && client.pendingMetadata && partner
      ? parsePartnerMetadata(client.pendingMetadata, partner, context.config.apiScopePrefix)
      : undefined;
  if (registration && client.status === "approved") checkClientTypeKept(client, registration);
  const mail = partner
    ? await mailToVendor(context, partner.id, (url) =>
        decision.approve
          ? {
              kind: client.pendingMetadata ? "application_change_approved" : "application_approved",
              names: client.names,
              url,
            }
          : { kind: "application_rejected", names: client.names, reason: decision.reason, url },
      )
    : [];
  const outcome = await context.stores.partners.saveReview(
    { clientId, version: client.updatedAt },
    decision.approve ? { approved: true, registration } : { approved: false, note: decision.reason },
    mail,
    by,
  );
  if (outcome === "changed") throw changedMeanwhile(clientId);
  if (!outcome)
    throw new ClientRegistryError("invalid_state", `client "${clientId}" has no registration or change waiting`);
  return outcome;
}

const changedMeanwhile = (clientId: string) =>
  new ClientRegistryError("changed", `client "${clientId}" was changed by its vendor meanwhile: look at it again`);
