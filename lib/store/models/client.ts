/** A client registration as the protocol and the operator see it; lib/store/client-store.ts stores it. */
import type { JSONWebKeySet } from "jose";
import type { LocalizedText } from "@/lib/i18n/localized-text";

export type ClientKind = "browser" | "native" | "web" | "backend";
export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";
export type RefreshTokenPolicy = "reuse" | "rotate";
/** The algorithms OptiGate signs ID tokens with (lib/oauth/keys/signing-keys.ts). */
export type IdTokenSigningAlgorithm = "RS256" | "ES256" | "PS256";

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
  /** RFC 8707: resource servers it may ask tokens for besides OptiGate's own (lib/oauth/resource-indicators.ts). */
  allowedResources: string[];
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
  /** RFC 9449 §5.2: token requests must carry a DPoP proof. */
  dpopBoundAccessTokens: boolean;
  /** RFC 9126 §6: authorization requests only by a pushed request's request_uri. */
  requirePushedAuthorizationRequests: boolean;
}

export type RegisteredClient = ClientRegistration & { id: string; createdAt: Date; updatedAt: Date };

/** Who registered a client: a software vendor (its company), or the operator (null). */
export interface ClientOwner {
  /** The vendor's company; null: registered by the operator. Decides what the client's URLs may reach. */
  ownerCompanyId: string | null;
}

export interface ClientWithSecrets extends RegisteredClient, ClientOwner {
  /** SHA-256 hashes of the secrets that are neither disabled nor expired at load time, with their expiry. */
  secrets: { hash: string; expiresAt: Date | null }[];
  /** A vendor's application waiting for approval, seen as its sandbox (lib/store/models/sandbox-client.ts). */
  sandbox?: true;
}

/** A secret as the operator sees it: never its hash. */
export interface ClientSecretInfo {
  id: string;
  description: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  disabledAt: Date | null;
  lastUsedAt: Date | null;
}

/** A software vendor with what the operator allowed its applications: platform scopes, its own APIs (RFC 8707). */
export interface VendorAllowance {
  id: string;
  partnerScopes: string[];
  partnerResources: string[];
  /** its applications waiting for approval may sign in the vendor's own people (lib/store/models/sandbox-client.ts) */
  sandbox: boolean;
}

export type AllowanceField = "partnerScopes" | "partnerResources";

/** A software vendor's application (or any client, as the operator reviews it) with where it stands. */
export interface PartnerApplication extends RegisteredClient, ClientOwner {
  /** "approved", "pending" or "rejected": only approved clients exist for the protocol. */
  status: string;
  /** An approved application's change that waits for the operator: its RFC 7591 metadata. */
  pendingMetadata: Record<string, unknown> | null;
  /** Why the operator rejected the registration or its last change. */
  reviewNote: string | null;
}

/** A client that registered where to be told that a session ended. */
export interface ClientLogoutUris extends ClientOwner {
  id: string;
  frontchannelLogoutUri: string | null;
  backchannelLogoutUri: string | null;
  idTokenSignedResponseAlg: string | null;
}
