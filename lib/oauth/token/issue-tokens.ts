/**
 * Token responses of the token endpoint: an access token, an ID token when `openid` was granted, and a refresh token
 * when the grant hands one out (a new family after an authorization code; successors of rotated tokens come from refresh-rotation.ts).
 */
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "@/lib/config/policy";
import { randomUUID } from "node:crypto";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { signAccessToken, signIdToken } from "@/lib/oauth/token/jwt-tokens";
import type { UserWithCompany } from "@/lib/store/models/user";
import { userClaims } from "@/lib/oauth/user-claims";
import type { AuthenticationMethod } from "@/lib/store/models/authentication";
import type { ServiceContext } from "@/lib/service-context";

interface NewRefreshToken {
  /** The family of the token it replaces; absent: a new family. */
  familyId?: string;
  scopes: string[];
  consentId?: string | null;
  authorizationCodeId?: string | null;
  /** A public client's token is bound to the DPoP key of the request that got it. */
  dpopJkt?: string | null;
  /** RFC 8707: the resources of the grant, which later refreshes narrow to; none: the default audience. */
  resources?: readonly string[];
}

export interface UserGrant {
  client: ClientWithSecrets;
  user: UserWithCompany;
  scopes: string[];
  authTime: Date;
  amr: readonly AuthenticationMethod[];
  sessionId?: string | null;
  nonce?: string | null;
  /** What the client asked for; the response names the granted scope when it differs. */
  requestedScope?: string;
  newRefreshToken?: NewRefreshToken;
  /** The thumbprint of the request's DPoP key: the access token is bound to it. */
  dpopJkt?: string;
  /** RFC 8707: the access token's audience (tokenAudience); absent: the default audience. */
  audience?: string;
}

export interface TokenResponseBody {
  access_token: string;
  token_type: "Bearer" | "DPoP";
  expires_in: number;
  scope?: string;
  id_token?: string;
  refresh_token?: string;
  /** RFC 8693 §2.2.1: token exchange says what it issued. */
  issued_token_type?: string;
}

const sameScopes = (requested: string, granted: string[]) =>
  requested.split(" ").filter(Boolean).sort().join(" ") === [...granted].sort().join(" ");

async function createRefreshToken(
  context: ServiceContext,
  grant: UserGrant,
  spec: NewRefreshToken,
  now: Date,
): Promise<string> {
  const token = generateOpaqueToken();
  await context.stores.refreshTokens.save(
    token,
    {
      familyId: spec.familyId ?? randomUUID(),
      clientId: grant.client.id,
      userId: grant.user.id,
      consentId: spec.consentId ?? null,
      authorizationCodeId: spec.authorizationCodeId ?? null,
      loginSessionId: grant.sessionId ?? null,
      scopes: spec.scopes,
      authTime: grant.authTime,
      amr: [...grant.amr],
      dpopJkt: spec.dpopJkt ?? null,
      resources: [...(spec.resources ?? [])],
    },
    now,
  );
  return token;
}

/** The access token of a response; `token_type` DPoP when it is bound to the request's DPoP key (RFC 9449 §5). */
const accessTokenFields = (accessToken: string, dpopJkt: string | undefined) => ({
  access_token: accessToken,
  token_type: dpopJkt ? ("DPoP" as const) : ("Bearer" as const),
  expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
});

export async function issueUserTokens(
  context: ServiceContext,
  grant: UserGrant,
  now = new Date(),
): Promise<TokenResponseBody> {
  const accessToken = await signAccessToken(
    context,
    {
      clientId: grant.client.id,
      scopes: grant.scopes,
      user: grant.user,
      authTime: grant.authTime,
      amr: grant.amr,
      dpopJkt: grant.dpopJkt,
      audience: grant.audience,
    },
    now,
  );
  const body: TokenResponseBody = accessTokenFields(accessToken, grant.dpopJkt);
  if (grant.requestedScope !== undefined && !sameScopes(grant.requestedScope, grant.scopes))
    body.scope = grant.scopes.join(" ");
  if (grant.scopes.includes("openid")) {
    body.id_token = await signIdToken(
      context,
      {
        client: grant.client,
        user: grant.user,
        authTime: grant.authTime,
        amr: grant.amr,
        nonce: grant.nonce,
        sessionId: grant.sessionId,
        accessToken,
        userClaims: grant.client.idTokenClaims ? userClaims(grant.user, grant.scopes) : undefined,
      },
      now,
    );
  }
  if (grant.newRefreshToken) body.refresh_token = await createRefreshToken(context, grant, grant.newRefreshToken, now);
  return body;
}

/** client_credentials: the client is the subject; no ID token, no refresh token. */
export async function issueClientTokens(
  context: ServiceContext,
  client: ClientWithSecrets,
  { scopes, requestedScope, dpopJkt, audience }: Pick<UserGrant, "scopes" | "requestedScope" | "dpopJkt" | "audience">,
  now = new Date(),
): Promise<TokenResponseBody> {
  const accessToken = await signAccessToken(
    context,
    { clientId: client.id, scopes, clientCompanyId: client.companyId, dpopJkt, audience },
    now,
  );
  const body: TokenResponseBody = accessTokenFields(accessToken, dpopJkt);
  if (requestedScope === undefined || !sameScopes(requestedScope, scopes)) body.scope = scopes.join(" ");
  return body;
}

/** Federated grants: an access token for the local user the trusted issuer's token named; no ID or refresh token. */
export async function issueFederatedToken(
  context: ServiceContext,
  client: ClientWithSecrets,
  identity: { user: UserWithCompany; issuer: string; authTime?: Date },
  scopes: string[],
  requestedScope: string | undefined,
  dpopJkt: string | undefined,
  now = new Date(),
): Promise<TokenResponseBody> {
  const subject = {
    clientId: client.id,
    scopes,
    user: identity.user,
    authTime: identity.authTime,
    identityProvider: identity.issuer,
    dpopJkt,
  };
  const body: TokenResponseBody = accessTokenFields(await signAccessToken(context, subject, now), dpopJkt);
  if (requestedScope === undefined || !sameScopes(requestedScope, scopes)) body.scope = scopes.join(" ");
  return body;
}
