/**
 * Refresh tokens, authorization codes and used assertions as the token endpoint reads and writes them. Values are
 * never stored: the stores keep their SHA-256 and find them by the value presented.
 */
import type { AuthenticationMethod } from "@/lib/store/models/authentication";

/** What a grant holds, whichever token or code carries it. */
interface GrantFacts {
  clientId: string;
  userId: string;
  consentId: string | null;
  loginSessionId: string | null;
  scopes: string[];
  authTime: Date;
  amr: AuthenticationMethod[];
}

/** What a new refresh token holds besides its value. */
export interface RefreshTokenGrant extends GrantFacts {
  familyId: string;
  authorizationCodeId: string | null;
  /** A public client's token: the thumbprint of the DPoP key it is bound to (RFC 9449 §5). */
  dpopJkt: string | null;
  /** RFC 8707: the resources of the original grant, which a refresh may narrow to; none: the default audience. */
  resources: string[];
}

export interface RefreshToken extends RefreshTokenGrant {
  id: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

/** A token whose expiry a use has just moved: what the grant needs to answer, and nothing more. */
export type UsedRefreshToken = Omit<RefreshToken, "createdAt" | "lastUsedAt" | "expiresAt" | "rotatedAt" | "revokedAt">;

export type RefreshTokenSelection =
  { familyId: string } | { authorizationCodeId: string } | { userId: string; clientId: string };

/** What a code holds besides its value. */
export interface AuthorizationCodeGrant extends GrantFacts {
  redirectUri: string;
  requestedScopes: string;
  nonce: string | null;
  /** PKCE S256 challenge, when the request had one. */
  codeChallenge: string | null;
  /** dpop_jkt of the authorization request: the DPoP key the code is bound to. */
  dpopJkt: string | null;
  /** RFC 8707: the resources the authorization request named; none: the default audience. */
  resources: string[];
}

/** A code as redeemed: its grant and its id, which its refresh tokens name. */
export type ConsumedCode = AuthorizationCodeGrant & { id: string };

export interface AuthorizationCode extends ConsumedCode {
  createdAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
}

/**
 * A signed assertion's use: its kind keeps client assertions, federated grants, DPoP proofs, the logout tokens of
 * companies' providers and solved proof-of-work challenges apart.
 */
export interface AssertionUse {
  kind: "client" | "grant" | "dpop" | "logout" | "proof_of_work";
  signer: string;
  jti: string;
  /** The assertion's own expiry (seconds since the epoch). */
  exp: number;
}
