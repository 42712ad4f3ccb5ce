/**
 * Token responses: a JWT access token (RFC 9068, one hour), an ID token when `openid` was granted (OpenID Connect
 * Core §2, with at_hash and sid), and an opaque refresh token when an offline client was granted offline_access.
 */
import { createHash, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Company, User } from "@/lib/db/generated/sqlite/client";
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { activeKey, getKeySet, type ActiveKey } from "@/lib/oauth/keys/key-store";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import type { ServiceContext } from "@/lib/service-context";

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
export const ID_TOKEN_LIFETIME_SECONDS = 3600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 365 * 24 * 3600;

export interface UserGrant {
  client: ClientWithSecrets;
  user: User & { company: Company };
  scopes: string[];
  authTime: Date;
  sessionId?: string | null;
  nonce?: string | null;
  /** The scope the client asked for; the response names the granted scope when it differs. */
  requestedScope?: string;
  /** Links of a new refresh token. */
  consentId?: string | null;
  authorizationCodeId?: string;
}

export interface TokenResponseBody {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope?: string;
  id_token?: string;
  refresh_token?: string;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The API audience of access tokens. */
export const resourceAudience = (issuer: string) => `${issuer}/resources`;

function sign(claims: Record<string, unknown>, key: ActiveKey, typ: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ }).sign(key.privateKey);
}

/** OpenID Connect Core §3.1.3.6: left half of the SHA-256 of the access token (RS256 and ES256 both use SHA-256). */
export function accessTokenHash(accessToken: string): string {
  return createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url");
}

async function createRefreshToken(context: ServiceContext, grant: UserGrant, now: Date): Promise<string> {
  const token = generateOpaqueToken();
  await context.db.refreshToken.create({
    data: {
      tokenHash: hashToken(token),
      familyId: randomUUID(),
      clientId: grant.client.id,
      userId: grant.user.id,
      consentId: grant.consentId,
      authorizationCodeId: grant.authorizationCodeId,
      loginSessionId: grant.sessionId,
      scopes: JSON.stringify(grant.scopes),
      authTime: grant.authTime,
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000),
    },
  });
  return token;
}

export async function issueUserTokens(context: ServiceContext, grant: UserGrant, now = new Date()): Promise<TokenResponseBody> {
  const { config } = context;
  const keys = await getKeySet(context.db, config.secretKey);
  const iat = seconds(now);
  const scope = grant.scopes.join(" ");
  const accessToken = await sign(
    {
      iss: config.publicUrl,
      sub: grant.user.id,
      aud: resourceAudience(config.publicUrl),
      client_id: grant.client.id,
      scope,
      iat,
      exp: iat + ACCESS_TOKEN_LIFETIME_SECONDS,
      jti: randomUUID(),
      auth_time: seconds(grant.authTime),
      company_id: grant.user.companyId,
      role: grant.user.role,
    },
    activeKey(keys, config.tokenSigningAlg),
    "at+jwt",
  );
  const body: TokenResponseBody = { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS };
  if (grant.requestedScope !== undefined && grant.requestedScope.split(" ").filter(Boolean).sort().join(" ") !== [...grant.scopes].sort().join(" ")) {
    body.scope = scope;
  }
  if (grant.scopes.includes("openid")) {
    body.id_token = await sign(
      {
        iss: config.publicUrl,
        sub: grant.user.id,
        aud: grant.client.id,
        iat,
        exp: iat + ID_TOKEN_LIFETIME_SECONDS,
        auth_time: seconds(grant.authTime),
        at_hash: accessTokenHash(accessToken),
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
        ...(grant.sessionId ? { sid: grant.sessionId } : {}),
      },
      activeKey(keys, "RS256"),
      "JWT",
    );
  }
  if (grant.scopes.includes(OFFLINE_ACCESS) && grant.client.offlineAccess) body.refresh_token = await createRefreshToken(context, grant, now);
  return body;
}
