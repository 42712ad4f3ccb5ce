/**
 * The JWTs OptiGate signs: access tokens (RFC 9068, `typ: at+jwt`, one hour) for users and for clients acting on
 * their own behalf, and ID tokens (OpenID Connect Core §2, one hour; signed with the client's
 * id_token_signed_response_alg, else ID_TOKEN_SIGNING_ALG, RS256 by default). An access token issued for a trusted
 * issuer's token carries that issuer in `idp`: the user signed in there, not here. A token requested with a DPoP
 * proof carries the proof key's thumbprint in `cnf.jkt` (RFC 9449 §6.1). Its `aud` is the resource it was requested
 * for (RFC 8707), or the default audience.
 */
import { ACCESS_TOKEN_LIFETIME_SECONDS, ID_TOKEN_LIFETIME_SECONDS } from "@/lib/config/policy";
import { createHash, randomUUID } from "node:crypto";
import type { UserWithCompany } from "@/lib/store/models/user";
import { signJwt } from "@/lib/oauth/keys/jwt-signer";
import { signingKeyFor } from "@/lib/oauth/keys/signing-keys";
import { isSigningAlgorithm, type SigningAlgorithm } from "@/lib/store/models/signing-key";
import type { ServiceContext } from "@/lib/service-context";
import { acrOf } from "@/lib/session/authentication-level";
import { CLIENT_TOKEN_GRANT } from "@/lib/jwt/token-principal";
import { defaultAudience } from "@/lib/oauth/resource-indicators";

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** OpenID Connect Core §3.1.3.6: left half of the SHA-256 of the access token (RS256, ES256 and PS256 all use SHA-256). */
export function accessTokenHash(accessToken: string): string {
  return createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url");
}

export interface AccessTokenSubject {
  clientId: string;
  scopes: string[];
  /** Absent for client credentials: then the client is the subject. */
  user?: UserWithCompany;
  /** Client credentials of a client the operator gave a company (client metadata company_id). */
  clientCompanyId?: string | null;
  authTime?: Date;
  /** How the user signed in here (RFC 8176); with it the token carries `amr` and `acr` (RFC 9068 §2.2.1). */
  amr?: readonly string[];
  /** Federated tokens: the trusted issuer whose token was exchanged for this one. */
  identityProvider?: string;
  /** RFC 9449 §6.1: the thumbprint of the DPoP key the token is bound to (`cnf.jkt`). */
  dpopJkt?: string;
  /** RFC 8707: the resource the token is for (lib/oauth/resource-indicators.ts); absent: the default audience. */
  audience?: string;
}

export async function signAccessToken(
  context: ServiceContext,
  subject: AccessTokenSubject,
  now: Date,
): Promise<string> {
  const { config } = context;
  const iat = seconds(now);
  const claims: Record<string, unknown> = {
    iss: config.publicUrl,
    sub: subject.user?.id ?? subject.clientId,
    aud: subject.audience ?? defaultAudience(config.publicUrl),
    client_id: subject.clientId,
    scope: subject.scopes.join(" "),
    iat,
    exp: iat + ACCESS_TOKEN_LIFETIME_SECONDS,
    jti: randomUUID(),
  };
  // A federated token has auth_time only when the trusted issuer said when the user signed in there.
  if (subject.user)
    Object.assign(claims, {
      ...(subject.authTime ? { auth_time: seconds(subject.authTime) } : {}),
      ...(subject.amr ? { acr: acrOf(subject.amr), amr: subject.amr } : {}),
      company_id: subject.user.companyId,
      role: subject.user.role,
    });
  else {
    // The mark that this token stands for its client, whatever its sub looks like (lib/jwt/token-principal.ts).
    claims.gty = CLIENT_TOKEN_GRANT;
    if (subject.clientCompanyId) claims.company_id = subject.clientCompanyId;
  }
  if (subject.identityProvider) claims.idp = subject.identityProvider;
  if (subject.dpopJkt) claims.cnf = { jkt: subject.dpopJkt };
  return signJwt(
    claims,
    await signingKeyFor(context.stores.signingKeys, config.secretKey, config.tokenSigningAlg),
    "at+jwt",
  );
}

/** The algorithm of a client's ID tokens and logout tokens. */
function idTokenAlgorithm(context: ServiceContext, clientAlg: string | null): SigningAlgorithm {
  return isSigningAlgorithm(clientAlg) ? clientAlg : context.config.idTokenSigningAlg;
}

export interface IdTokenContents {
  /** `sandbox`: an application waiting for approval, whose sign-ins the ID token marks (`sandbox: true`) */
  client: { id: string; idTokenSignedResponseAlg: string | null; sandbox?: true };
  user: UserWithCompany;
  authTime: Date;
  /** How the user signed in (RFC 8176): the ID token's `amr`, and its `acr` */
  amr: readonly string[];
  nonce?: string | null;
  sessionId?: string | null;
  accessToken?: string;
  /** Claims of the profile and email scopes, for responses without an access token to call userinfo with. */
  userClaims?: Record<string, unknown>;
}

export async function signIdToken(context: ServiceContext, contents: IdTokenContents, now: Date): Promise<string> {
  const { config } = context;
  const iat = seconds(now);
  const claims = {
    iss: config.publicUrl,
    sub: contents.user.id,
    aud: contents.client.id,
    iat,
    exp: iat + ID_TOKEN_LIFETIME_SECONDS,
    auth_time: seconds(contents.authTime),
    acr: acrOf(contents.amr),
    amr: contents.amr,
    ...(contents.accessToken ? { at_hash: accessTokenHash(contents.accessToken) } : {}),
    ...(contents.nonce ? { nonce: contents.nonce } : {}),
    ...(contents.sessionId ? { sid: contents.sessionId } : {}),
    ...(contents.client.sandbox ? { sandbox: true } : {}),
    ...contents.userClaims,
  };
  return signJwt(
    claims,
    await signingKeyFor(
      context.stores.signingKeys,
      config.secretKey,
      idTokenAlgorithm(context, contents.client.idTokenSignedResponseAlg),
    ),
    "JWT",
  );
}

/** OpenID Connect Back-Channel Logout 1.0 §2.4: tells a client that the user's session ended. */
export async function signLogoutToken(
  context: ServiceContext,
  logout: { clientId: string; userId: string; sessionId: string; idTokenSignedResponseAlg: string | null },
  now: Date,
): Promise<string> {
  const iat = seconds(now);
  const claims = {
    iss: context.config.publicUrl,
    sub: logout.userId,
    aud: logout.clientId,
    iat,
    exp: iat + 120,
    jti: randomUUID(),
    sid: logout.sessionId,
    events: { "http://schemas.openid.net/event/backchannel-logout": {} },
  };
  return signJwt(
    claims,
    await signingKeyFor(
      context.stores.signingKeys,
      context.config.secretKey,
      idTokenAlgorithm(context, logout.idTokenSignedResponseAlg),
    ),
    "logout+jwt",
  );
}
