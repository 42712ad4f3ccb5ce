/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). The code is single-use: it is consumed by one
 * conditional update that also returns it (lib/store/authorization-code-store.ts), so of concurrent redemptions
 * exactly one succeeds, and a redemption costs no other database statement. Presenting a used code again revokes the
 * refresh tokens issued from it (RFC 6749 §4.1.2). A code requested with `dpop_jkt` needs a DPoP proof by that key.
 * The access token is for one of the resources the authorization request named (RFC 8707), the refresh token keeps
 * them all.
 */
import { noteUser } from "@/lib/observability/request-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidGrant } from "@/lib/errors/oauth-error";
import { verifyCodeVerifier } from "@/lib/oauth/pkce";
import { tokenAudience } from "@/lib/oauth/resource-indicators";
import { sameUri } from "@/lib/oauth/redirect-uri-matching";
import { trialRedirectUri } from "@/lib/oauth/authorize/vendor-sign-in";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import { issueUserTokens, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";

async function revokeTokensIssuedFrom(context: ServiceContext, codeId: string, now: Date): Promise<void> {
  await context.stores.refreshTokens.revoke({ authorizationCodeId: codeId }, now);
}

/** Refresh tokens go only to offline clients that were granted offline_access. */
export const offlineGrant = (client: ClientWithSecrets, scopes: string[]) =>
  client.offlineAccess && scopes.includes(OFFLINE_ACCESS);

function checkCodeVerifier(codeChallenge: string | null, verifier: string | undefined): void {
  if (codeChallenge === null) {
    if (verifier !== undefined)
      throw invalidGrant("code_verifier was sent, but the authorization request had no code_challenge");
    return;
  }
  if (verifier === undefined) throw invalidGrant("code_verifier is missing (the authorization request used PKCE)");
  if (!verifyCodeVerifier(verifier, codeChallenge))
    throw invalidGrant("code_verifier does not match the code_challenge");
}

/** The reason a code could not be consumed; a second use also revokes what the first one issued. */
async function refusal(context: ServiceContext, code: string, clientId: string, now: Date): Promise<Error> {
  const row = await context.stores.authorizationCodes.find(code);
  if (!row || row.clientId !== clientId) return invalidGrant("the authorization code is not valid");
  if (row.consumedAt) {
    await revokeTokensIssuedFrom(context, row.id, now);
    return invalidGrant("the authorization code was already used");
  }
  return invalidGrant("the authorization code has expired");
}

/** RFC 9449 §10: a code requested with dpop_jkt is redeemed only with a proof by that key. */
function checkDpopBinding(boundTo: string | null, proven: string | undefined): void {
  if (boundTo !== null && boundTo !== proven)
    throw invalidGrant("the DPoP proof's key is not the one named by dpop_jkt in the authorization request");
}

/** A public client's refresh token is bound to the DPoP key it was requested with (RFC 9449 §5). */
export const refreshBinding = (client: ClientWithSecrets, dpopJkt: string | undefined) =>
  client.tokenEndpointAuthMethod === "none" ? dpopJkt : undefined;

export async function redeemCode(
  context: ServiceContext,
  client: ClientWithSecrets,
  request: Extract<TokenRequest, { grantType: "authorization_code" }>,
  now = new Date(),
): Promise<TokenResponseBody> {
  // Consuming first means any attempt spends the code, so a stolen code cannot be tried against many verifiers.
  const row = await context.stores.authorizationCodes.consume(request.code, client.id, now);
  if (!row) throw await refusal(context, request.code, client.id, now);
  const { redirectUri, codeVerifier, dpopJkt, resources } = request;
  if (!sameUri(row.redirectUri, redirectUri))
    throw invalidGrant("redirect_uri differs from the one of the authorization request");
  if ((row.redirectUri === trialRedirectUri(context.config.publicUrl)) !== (request.trial === true))
    throw invalidGrant("the authorization code is not valid");
  checkCodeVerifier(row.codeChallenge, codeVerifier);
  checkDpopBinding(row.dpopJkt, dpopJkt);
  const audience = tokenAudience(context.config, client, resources ?? [], row.resources);
  // Revoking a consent deletes its unused codes (revokeConsentAndItsGrants), so a consumed code still has its consent.
  noteUser(row.userId);
  const user = await context.stores.users.findActive(row.userId);
  if (!user) throw invalidGrant("the user of this authorization code is no longer active");
  const scopes = row.scopes;
  return issueUserTokens(
    context,
    {
      client,
      user,
      scopes,
      authTime: row.authTime,
      amr: row.amr,
      sessionId: row.loginSessionId,
      nonce: row.nonce,
      requestedScope: row.requestedScopes,
      newRefreshToken: offlineGrant(client, scopes)
        ? {
            scopes,
            consentId: row.consentId,
            authorizationCodeId: row.id,
            dpopJkt: refreshBinding(client, dpopJkt),
            resources: row.resources,
          }
        : undefined,
      dpopJkt,
      audience,
    },
    now,
  );
}
