/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). The code is single-use: it is consumed by one
 * conditional update, so of two concurrent redemptions exactly one succeeds. Presenting a used code again revokes
 * the refresh tokens issued from it (RFC 6749 §4.1.2).
 */
import { hashToken } from "@/lib/crypto/tokens";
import { optional, type Parameters } from "@/lib/http/request-parameters";
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { invalidGrant, invalidRequest } from "@/lib/oauth/errors";
import { verifyCodeVerifier } from "@/lib/oauth/pkce";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import { issueUserTokens, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { ServiceContext } from "@/lib/service-context";

async function revokeTokensIssuedFrom(context: ServiceContext, codeId: string, now: Date): Promise<void> {
  await context.db.refreshToken.updateMany({ where: { authorizationCodeId: codeId, revokedAt: null }, data: { revokedAt: now } });
}

/** Refresh tokens go only to offline clients that were granted offline_access. */
export const offlineGrant = (client: ClientWithSecrets, scopes: string[]) => client.offlineAccess && scopes.includes(OFFLINE_ACCESS);

function checkCodeVerifier(codeChallenge: string | null, verifier: string | undefined): void {
  if (codeChallenge === null) {
    if (verifier !== undefined) throw invalidGrant("code_verifier was sent, but the authorization request had no code_challenge");
    return;
  }
  if (verifier === undefined) throw invalidGrant("code_verifier is missing (the authorization request used PKCE)");
  if (!verifyCodeVerifier(verifier, codeChallenge)) throw invalidGrant("code_verifier does not match the code_challenge");
}

export async function redeemAuthorizationCode(context: ServiceContext, client: ClientWithSecrets, params: Parameters, now = new Date()): Promise<TokenResponseBody> {
  const code = optional(params, "code");
  if (code === undefined) throw invalidRequest("code is missing");
  const redirectUri = optional(params, "redirect_uri");
  if (redirectUri === undefined) throw invalidRequest("redirect_uri is missing");

  const { db } = context;
  const row = await db.authorizationCode.findUnique({ where: { codeHash: hashToken(code) } });
  if (!row || row.clientId !== client.id) throw invalidGrant("the authorization code is not valid");
  if (row.consumedAt) {
    await revokeTokensIssuedFrom(context, row.id, now);
    throw invalidGrant("the authorization code was already used");
  }
  if (row.expiresAt <= now) throw invalidGrant("the authorization code has expired");
  if (row.redirectUri !== redirectUri) throw invalidGrant("redirect_uri differs from the one of the authorization request");
  checkCodeVerifier(row.codeChallenge, optional(params, "code_verifier"));

  const consumed = await db.authorizationCode.updateMany({ where: { id: row.id, consumedAt: null }, data: { consumedAt: now } });
  if (consumed.count !== 1) {
    await revokeTokensIssuedFrom(context, row.id, now);
    throw invalidGrant("the authorization code was already used");
  }
  const user = await db.user.findUnique({ where: { id: row.userId }, include: { company: true } });
  if (!user || !user.active) throw invalidGrant("the user of this authorization code is no longer active");
  if (row.consentId) {
    const consent = await db.consent.findUnique({ where: { id: row.consentId }, select: { revokedAt: true } });
    if (!consent || consent.revokedAt) throw invalidGrant("the user has revoked this application's access");
  }
  return issueUserTokens(
    context,
    {
      client,
      user,
      scopes: JSON.parse(row.scopes),
      authTime: row.authTime,
      sessionId: row.loginSessionId,
      nonce: row.nonce,
      requestedScope: row.requestedScopes,
      newRefreshToken: offlineGrant(client, JSON.parse(row.scopes)) ? { scopes: JSON.parse(row.scopes), consentId: row.consentId, authorizationCodeId: row.id } : undefined,
    },
    now,
  );
}
