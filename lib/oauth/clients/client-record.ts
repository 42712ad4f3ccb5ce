/** Converts between a client registration and its `clients` row (lists and language maps are JSON text). */
import type { JSONWebKeySet } from "jose";
import type { Client } from "@/lib/db/rows";
import type { LocalizedText } from "@/lib/i18n/localized-text";

export type ClientKind = "browser" | "native" | "web" | "backend";
export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";
type RefreshTokenPolicy = "reuse" | "rotate";
/** The algorithms OptiGate signs ID tokens with (lib/oauth/keys/signing-keys.ts). */
type IdTokenSigningAlgorithm = "RS256" | "ES256" | "PS256";

export interface ClientRegistration {
  /** Absent when the service is to assign one. */
  id?: string;
  kind: ClientKind;
  names: LocalizedText;
  descriptions: LocalizedText;
  grantTypes: string[];
  responseTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  corsOrigins: string[];
  allowedScopes: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  offlineAccess: boolean;
  refreshTokenPolicy: RefreshTokenPolicy;
  /** OpenID Connect Front-Channel Logout 1.0. */
  frontchannelLogoutUri: string | null;
  /** OpenID Connect Back-Channel Logout 1.0. */
  backchannelLogoutUri: string | null;
  /** May introspect access tokens issued to other clients (RFC 7662 §4). */
  resourceServer: boolean;
  /** Backend clients: the company whose rights the client has on the platform API, set by the operator. */
  companyId: string | null;
  /** private_key_jwt clients: their public keys (RFC 7591 `jwks`), or where to fetch them (`jwks_uri`). */
  jwks: JSONWebKeySet | null;
  jwksUri: string | null;
  /** OpenID Connect Registration `id_token_signed_response_alg`; null: the server's default (ID_TOKEN_SIGNING_ALG). */
  idTokenSignedResponseAlg: IdTokenSigningAlgorithm | null;
  /** The granted profile and email claims go into the ID token too, not only to userinfo. */
  idTokenClaims: boolean;
}

export type RegisteredClient = ClientRegistration & { id: string; createdAt: Date; updatedAt: Date };

export function clientRowData(registration: ClientRegistration) {
  return {
    kind: registration.kind,
    names: JSON.stringify(registration.names),
    descriptions: JSON.stringify(registration.descriptions),
    grantTypes: JSON.stringify(registration.grantTypes),
    responseTypes: JSON.stringify(registration.responseTypes),
    redirectUris: JSON.stringify(registration.redirectUris),
    corsOrigins: JSON.stringify(registration.corsOrigins),
    postLogoutRedirectUris: JSON.stringify(registration.postLogoutRedirectUris),
    allowedScopes: JSON.stringify(registration.allowedScopes),
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    offlineAccess: registration.offlineAccess,
    refreshTokenPolicy: registration.refreshTokenPolicy,
    frontchannelLogoutUri: registration.frontchannelLogoutUri,
    backchannelLogoutUri: registration.backchannelLogoutUri,
    resourceServer: registration.resourceServer,
    companyId: registration.companyId,
    jwks: registration.jwks ? JSON.stringify(registration.jwks) : null,
    jwksUri: registration.jwksUri,
    idTokenSignedResponseAlg: registration.idTokenSignedResponseAlg,
    idTokenClaims: registration.idTokenClaims,
  };
}

export function registeredClientFromRow(row: Client): RegisteredClient {
  return {
    id: row.id,
    kind: row.kind as ClientKind,
    names: JSON.parse(row.names),
    descriptions: JSON.parse(row.descriptions),
    grantTypes: JSON.parse(row.grantTypes),
    responseTypes: JSON.parse(row.responseTypes),
    redirectUris: JSON.parse(row.redirectUris),
    corsOrigins: JSON.parse(row.corsOrigins),
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris),
    allowedScopes: JSON.parse(row.allowedScopes),
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    offlineAccess: row.offlineAccess,
    refreshTokenPolicy: row.refreshTokenPolicy as RefreshTokenPolicy,
    frontchannelLogoutUri: row.frontchannelLogoutUri,
    backchannelLogoutUri: row.backchannelLogoutUri,
    resourceServer: row.resourceServer,
    companyId: row.companyId,
    jwks: row.jwks ? JSON.parse(row.jwks) : null,
    jwksUri: row.jwksUri,
    idTokenSignedResponseAlg: row.idTokenSignedResponseAlg as IdTokenSigningAlgorithm | null,
    idTokenClaims: row.idTokenClaims,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
