/**
 * Client registration from RFC 7591 client metadata, checked as a registrar would, for the operator CLI and the admin
 * pages: the client's kind follows from the metadata, and unknown fields are refused (docs/relying-parties.md lists
 * the kinds and fields). client-key-metadata.ts reads the keys, client-metadata-fields.ts the DPoP and PAR switches.
 */
import { randomUUID } from "node:crypto";
import { resolveClientKeys } from "@/lib/admin/client-key-metadata";
import { ClientMetadataError } from "@/lib/admin/client-metadata-error";
import { didYouMean } from "@/lib/errors/did-you-mean";
import {
  allowedResources,
  checkUris,
  fail,
  flag,
  localizedText,
  optionalString,
  refreshTokenPolicy,
  SENDER_CONSTRAINT_FIELDS,
  senderConstraints,
  stringList,
} from "@/lib/admin/client-metadata-fields";
import { nonPublicHostProblem } from "@/lib/http/public-address";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { corsOriginProblem, redirectUriProblem } from "@/lib/http/url-policy";
import type { ClientKind, ClientRegistration, TokenEndpointAuthMethod } from "@/lib/store/models/client";
import { DEVICE_CODE_GRANT, FEDERATION_GRANTS } from "@/lib/oauth/grant-types";
import { isSigningAlgorithm, SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";
import { checkManageScopes, resolveScopes } from "@/lib/admin/client-scopes";

export { ClientMetadataError };

const AUTH_METHODS: TokenEndpointAuthMethod[] = [
  "none",
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
];
const GRANTS_BY_KIND: Record<ClientKind, string[]> = {
  browser: ["authorization_code", "implicit"],
  native: ["authorization_code", "refresh_token", DEVICE_CODE_GRANT],
  web: ["authorization_code", "refresh_token", DEVICE_CODE_GRANT, ...FEDERATION_GRANTS],
  backend: ["client_credentials", ...FEDERATION_GRANTS],
};
/** Grants without a browser: a client with only these is a backend client. */
const SERVER_GRANTS = ["client_credentials", ...FEDERATION_GRANTS];
/** Grants that send a person's browser to the authorization endpoint: a client with one needs redirect URIs. */
const BROWSER_GRANTS = ["authorization_code", "implicit"];
const RESPONSE_TYPES_BY_GRANT: Record<string, string[]> = {
  authorization_code: ["code"],
  implicit: ["id_token token", "id_token", "token"],
};
const SIMPLE_FIELDS = [
  "client_id",
  "redirect_uris",
  "post_logout_redirect_uris",
  "grant_types",
  "response_types",
  "token_endpoint_auth_method",
  "scope",
  "allowed_cors_origins",
  "offline_access",
  "application_type",
  "refresh_token_policy",
  "frontchannel_logout_uri",
  "backchannel_logout_uri",
  "resource_server",
  "company_id",
  "jwks",
  "jwks_uri",
  "id_token_signed_response_alg",
  "id_token_claims",
  "allowed_resources",
  ...SENDER_CONSTRAINT_FIELDS,
];
const LOCALIZED_FIELDS = ["client_name", "description"];
const KNOWN_FIELDS = [...SIMPLE_FIELDS, ...LOCALIZED_FIELDS];
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{2,63}$/;
const COMPANY_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Production rules for URLs OptiGate calls; OUTBOUND_ALLOW's ranges pass the public-address rule. */
type RegistrationRules = { production?: boolean; outboundAllow?: AddressRanges };

function checkKnownFields(metadata: Record<string, unknown>): void {
  for (const key of Object.keys(metadata)) {
    const tag = key.split("#").slice(1);
    const fields = tag.length > 0 ? LOCALIZED_FIELDS.map((field) => [field, ...tag].join("#")) : KNOWN_FIELDS;
    if (!fields.includes(key)) fail(`unknown field "${key}"${didYouMean(key, fields)}`);
  }
}

function determineKind(
  metadata: Record<string, unknown>,
  grantTypes: string[] | undefined,
): { kind: ClientKind; authMethod: TokenEndpointAuthMethod } {
  const applicationType = optionalString(metadata, "application_type") ?? "web";
  if (applicationType !== "web" && applicationType !== "native") fail(`application_type must be "web" or "native"`);
  const requested = optionalString(metadata, "token_endpoint_auth_method");
  if (requested !== undefined && !AUTH_METHODS.includes(requested as TokenEndpointAuthMethod)) {
    fail(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}`);
  }
  const authMethod = requested as TokenEndpointAuthMethod | undefined;
  if (grantTypes?.length && grantTypes.every((grant) => SERVER_GRANTS.includes(grant))) {
    if (applicationType === "native" || authMethod === "none")
      fail(
        `${grantTypes.join(", ")} needs a confidential client: a backend client authenticates with a secret or its keys`,
      );
    return { kind: "backend", authMethod: authMethod ?? "client_secret_basic" };
  }
  // RFC 8628: a public client that signs in as a device only (no browser of its own) is a native app.
  const deviceOnly = grantTypes?.includes(DEVICE_CODE_GRANT) && !grantTypes.some((g) => BROWSER_GRANTS.includes(g));
  if (deviceOnly && authMethod === "none") return { kind: "native", authMethod };
  if (applicationType === "native") {
    if (authMethod !== undefined && authMethod !== "none")
      fail(`native clients are public: token_endpoint_auth_method must be "none"`);
    return { kind: "native", authMethod: "none" };
  }
  if (authMethod === "none") return { kind: "browser", authMethod };
  return { kind: "web", authMethod: authMethod ?? "client_secret_basic" };
}

function checkGrantTypes(kind: ClientKind, grantTypes: string[], offlineAccess: boolean): void {
  if (grantTypes.length === 0) fail("grant_types must not be empty");
  for (const grant of grantTypes) {
    if (!GRANTS_BY_KIND[kind].includes(grant))
      fail(`grant type "${grant}" does not fit a ${kind} client (allowed: ${GRANTS_BY_KIND[kind].join(", ")})`);
  }
  if (grantTypes.includes("refresh_token") && !offlineAccess)
    fail(`grant type "refresh_token" requires "offline_access": true`);
  if (kind !== "backend" && grantTypes.every((grant) => grant === "refresh_token"))
    fail(`grant_types must include authorization_code, implicit or ${DEVICE_CODE_GRANT}`);
}

function resolveResponseTypes(metadata: Record<string, unknown>, grantTypes: string[]): string[] {
  const expected = grantTypes.flatMap((grant) => RESPONSE_TYPES_BY_GRANT[grant] ?? []);
  const given = stringList(metadata, "response_types");
  if (given === undefined) return expected;
  for (const type of given) {
    if (!expected.includes(type))
      fail(`response type "${type}" does not fit grant_types ${JSON.stringify(grantTypes)}`);
  }
  for (const grant of grantTypes.filter((g) => RESPONSE_TYPES_BY_GRANT[g])) {
    if (!given.some((type) => RESPONSE_TYPES_BY_GRANT[grant].includes(type)))
      fail(`grant type "${grant}" needs a matching response type`);
  }
  return given;
}

function logoutUri(
  metadata: Record<string, unknown>,
  field: string,
  kind: ClientKind,
  { production = false, outboundAllow }: RegistrationRules,
): string | null {
  const uri = optionalString(metadata, field);
  if (uri === undefined) return null;
  if (kind === "backend") fail(`backend clients have no ${field}`);
  const problem = redirectUriProblem(uri, false);
  if (problem) throw new ClientMetadataError("invalid_client_metadata", `${field} "${uri}" ${problem}`);
  // OptiGate itself posts to the back-channel URI: in production never to an address inside the network, unless the
  // operator lets that range through (OUTBOUND_ALLOW).
  const internal =
    production && field === "backchannel_logout_uri"
      ? nonPublicHostProblem(new URL(uri).hostname, outboundAllow)
      : null;
  if (internal) fail(`${field} "${uri}" must be a public address: ${internal}`);
  return uri;
}

function resolveClientId(metadata: Record<string, unknown>): string | undefined {
  const id = optionalString(metadata, "client_id");
  if (id !== undefined && !CLIENT_ID.test(id)) {
    fail("client_id must be 3 to 64 characters: letters, digits, and . _ : - (not first)");
  }
  return id;
}

/**
 * Checks client metadata and turns it into a registration; throws ClientMetadataError with one clear message.
 * `production`: key set URLs must use https and name no loopback, private or other non-public host outside
 * `outboundAllow` (outside production, http on a loopback host is allowed too).
 */
export function parseClientMetadata(
  input: unknown,
  apiScopePrefix: string,
  options: RegistrationRules = {},
): ClientRegistration {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    fail("client metadata must be a JSON object");
  const metadata = input as Record<string, unknown>;
  checkKnownFields(metadata);

  const requestedGrants = stringList(metadata, "grant_types");
  const { kind, authMethod } = determineKind(metadata, requestedGrants);
  const offlineAccess = flag(metadata, "offline_access");
  if (offlineAccess && kind !== "native" && kind !== "web")
    fail(`offline_access is for native and server web clients, not for ${kind} clients`);

  const grantTypes = [...(requestedGrants ?? ["authorization_code"])];
  if (offlineAccess && !grantTypes.includes("refresh_token")) grantTypes.push("refresh_token");
  checkGrantTypes(kind, grantTypes, offlineAccess);
  const responseTypes = resolveResponseTypes(metadata, grantTypes);

  const interactive = kind !== "backend";
  const redirectUris = stringList(metadata, "redirect_uris") ?? [];
  const postLogoutRedirectUris = stringList(metadata, "post_logout_redirect_uris") ?? [];
  // A device-only client sends nobody to the authorization endpoint, so it needs no redirect URI.
  if (grantTypes.some((grant) => BROWSER_GRANTS.includes(grant)) && redirectUris.length === 0)
    fail(`redirect_uris must list at least one URI for ${kind} clients`);
  if (!interactive && (redirectUris.length > 0 || postLogoutRedirectUris.length > 0))
    fail("backend clients have no redirect URIs");
  checkUris("redirect_uris", redirectUris, kind === "native");
  checkUris("post_logout_redirect_uris", postLogoutRedirectUris, kind === "native");

  const corsOrigins = stringList(metadata, "allowed_cors_origins") ?? [];
  if (kind === "browser" && corsOrigins.length === 0)
    fail("allowed_cors_origins must list the origin of a browser client's pages");
  if (kind !== "browser" && corsOrigins.length > 0) fail("allowed_cors_origins is for browser clients only");
  corsOrigins.forEach((origin, index) => {
    const problem = corsOriginProblem(origin);
    if (problem) fail(`allowed_cors_origins[${index}] "${origin}" ${problem}`);
  });

  const resourceServer = flag(metadata, "resource_server");
  if (resourceServer && authMethod === "none")
    fail("resource_server is for confidential clients: a resource server authenticates to introspect tokens");

  const companyId = optionalString(metadata, "company_id") ?? null;
  if (companyId !== null && kind !== "backend")
    fail("company_id is for backend clients only: other clients act for their signed-in user");
  if (companyId !== null && !COMPANY_ID.test(companyId))
    fail("company_id must be a company's id (letters, digits, '.', '_' and '-', at most 64)");

  const idTokenAlg = optionalString(metadata, "id_token_signed_response_alg") ?? null;
  if (idTokenAlg !== null && !isSigningAlgorithm(idTokenAlg))
    fail(`id_token_signed_response_alg must be ${SIGNING_ALGORITHMS.join(", ")} (or absent: the server's default)`);
  if (idTokenAlg !== null && kind === "backend")
    fail("id_token_signed_response_alg is for clients that receive ID tokens, not backend clients");
  const idTokenClaims = flag(metadata, "id_token_claims");
  if (idTokenClaims && kind === "backend")
    fail("id_token_claims is for clients that receive ID tokens, not backend clients");

  const allowedScopes = resolveScopes(metadata, kind, offlineAccess, apiScopePrefix);
  checkManageScopes(allowedScopes, kind, companyId);
  const keys = resolveClientKeys(metadata, authMethod, options.production ?? false, options.outboundAllow);
  const policy = refreshTokenPolicy(metadata, authMethod === "none", offlineAccess);

  return {
    id: resolveClientId(metadata),
    kind,
    names: localizedText(metadata, "client_name"),
    descriptions: localizedText(metadata, "description"),
    grantTypes,
    responseTypes,
    redirectUris,
    postLogoutRedirectUris,
    corsOrigins,
    allowedScopes,
    allowedResources: allowedResources(metadata),
    tokenEndpointAuthMethod: authMethod,
    offlineAccess,
    refreshTokenPolicy: policy,
    frontchannelLogoutUri: logoutUri(metadata, "frontchannel_logout_uri", kind, options),
    backchannelLogoutUri: logoutUri(metadata, "backchannel_logout_uri", kind, options),
    resourceServer,
    companyId,
    idTokenSignedResponseAlg: idTokenAlg,
    idTokenClaims,
    ...senderConstraints(metadata, kind, grantTypes),
    ...keys,
  };
}

export function generateClientId(): string {
  return randomUUID();
}
