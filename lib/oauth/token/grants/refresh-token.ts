/**
 * grant_type=refresh_token (RFC 6749 §6). Every use moves the token's expiry to one year from now (sliding). Per
 * client policy the token is reused (the legacy service's behaviour, confidential clients only) or rotated: a new refresh token
 * each time, and a rotated-out token presented later than ROTATION_GRACE_SECONDS revokes its whole family, while a
 * retry within that grace period (a client that raced itself) gets the same successor (refresh-rotation.ts). Each state change is one
 * conditional update, so concurrent requests leave nothing half-written; with the default policy that update also
 * returns the token, so a refresh costs one database round trip. Reasons for a refusal are looked up only then.
 * A public client's token bound to a DPoP key (RFC 9449 §5) is refused before any write without a proof by that key.
 * The access token may be for any one resource of the original grant (RFC 8707), as scopes may narrow.
 */
import { noteUser } from "@/lib/observability/request-context";
import { ROTATION_GRACE_SECONDS } from "@/lib/config/policy";
import type { RefreshToken, UsedRefreshToken } from "@/lib/store/models/token";
import { liveDescendant, rotateOut, successorToken } from "@/lib/oauth/token/refresh-rotation";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidGrant, invalidScope } from "@/lib/errors/oauth-error";
import { issueUserTokens, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import { tokenAudience } from "@/lib/oauth/resource-indicators";
import type { TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";

function narrowedScopes(granted: string[], requested: string | undefined): string[] {
  if (requested === undefined) return granted;
  const scopes = [...new Set(requested.split(" ").filter(Boolean))];
  const extra = scopes.find((scope) => !granted.includes(scope));
  if (extra !== undefined) throw invalidScope(`scope "${extra}" was not granted to this refresh token`);
  if (scopes.length === 0) throw invalidScope("scope must name at least one granted scope");
  return scopes;
}

/** Why a token could not be used; for rotated-out tokens outside the grace period, revokes the family. */
async function refusal(
  context: ServiceContext,
  presented: string,
  clientId: string,
  now: Date,
): Promise<Error | RefreshToken> {
  const token = await context.stores.refreshTokens.find(presented);
  if (!token || token.clientId !== clientId) return invalidGrant("the refresh token is not valid");
  if (token.revokedAt) return invalidGrant("the refresh token was revoked");
  if (token.expiresAt <= now) return invalidGrant("the refresh token has expired");
  // Never rotated out, so not reused: it had expired at `now` when the update ran, and a request with an earlier
  // `now` has moved its expiry since.
  if (!token.rotatedAt) return invalidGrant("the refresh token has expired");
  if (now.getTime() - token.rotatedAt.getTime() <= ROTATION_GRACE_SECONDS * 1000) return token; // raced retry
  await context.stores.refreshTokens.revoke({ familyId: token.familyId }, now);
  return invalidGrant("the refresh token was already used", "its family has been revoked");
}

/** RFC 9449 §5: a token bound to a DPoP key is used only with a proof by that key. */
function checkDpopBinding(token: { dpopJkt: string | null }, proven: string | undefined): void {
  if (token.dpopJkt !== null && token.dpopJkt !== proven)
    throw invalidGrant(
      "the refresh token is bound to another DPoP key: send a proof signed with the key it was issued for",
    );
}

/** Reuse policy: slide the expiry in one conditional update that also returns the token. */
async function slide(
  context: ServiceContext,
  client: ClientWithSecrets,
  presented: string,
  now: Date,
): Promise<UsedRefreshToken> {
  const token = await context.stores.refreshTokens.slide(presented, client.id, now);
  if (token) return token;
  const outcome = await refusal(context, presented, client.id, now);
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

/**
 * Rotate policy: check everything first (a refused request must not rotate the token out), then rotate it out. A
 * token another request rotated out within the grace period is answered with its live descendant.
 */
async function rotate(
  context: ServiceContext,
  client: ClientWithSecrets,
  presented: string,
  { scope: requestedScope, dpopJkt, resources }: Extract<TokenRequest, { grantType: "refresh_token" }>,
  now: Date,
): Promise<{ token: RefreshToken; successor: string }> {
  const token = await context.stores.refreshTokens.find(presented);
  if (token && token.clientId === client.id && !token.revokedAt && token.expiresAt > now) {
    checkDpopBinding(token, dpopJkt);
    narrowedScopes(token.scopes, requestedScope);
    tokenAudience(context.config, client, resources ?? [], token.resources);
    // RFC 9449 §5: a public client's token got without a proof is bound from the first refresh with one.
    const binding = token.dpopJkt ?? (client.tokenEndpointAuthMethod === "none" ? dpopJkt : undefined) ?? null;
    if (!token.rotatedAt && (await rotateOut(context, { ...token, dpopJkt: binding }, presented, now)))
      return { token, successor: successorToken(context.config.secretKey, presented) };
  }
  const outcome = await refusal(context, presented, client.id, now);
  if (outcome instanceof Error) throw outcome;
  checkDpopBinding(outcome, dpopJkt);
  return { token: outcome, successor: await liveDescendant(context, presented) };
}

export async function refresh(
  context: ServiceContext,
  client: ClientWithSecrets,
  request: Extract<TokenRequest, { grantType: "refresh_token" }>,
  now = new Date(),
): Promise<TokenResponseBody> {
  const { refreshToken: presented, scope: requestedScope, dpopJkt, resources } = request;
  const rotated =
    client.refreshTokenPolicy === "rotate" ? await rotate(context, client, presented, request, now) : undefined;
  const token = rotated?.token ?? (await slide(context, client, presented, now));
  // Only public clients' tokens are bound, and they always rotate: this never follows a slide.
  checkDpopBinding(token, dpopJkt);
  const granted = token.scopes;
  const scopes = narrowedScopes(granted, requestedScope);
  const audience = tokenAudience(context.config, client, resources ?? [], token.resources);
  noteUser(token.userId);
  const user = await context.stores.users.findActive(token.userId);
  if (!user) throw invalidGrant("the user of this refresh token is no longer active");
  const amr = token.amr;
  // A grant from a password alone, and the company requires a second factor now: the user signs in again with it.
  if (user.company.requireSecondFactor && !amr.includes("mfa"))
    throw invalidGrant("the user's company requires a second factor: sign in again with it");

  const body = await issueUserTokens(
    context,
    {
      client,
      user,
      scopes,
      authTime: token.authTime,
      amr,
      sessionId: token.loginSessionId,
      requestedScope: requestedScope ?? granted.join(" "),
      dpopJkt,
      audience,
    },
    now,
  );
  // Rotation hands out the successor stored with the original grant; reuse keeps the token.
  return { ...body, refresh_token: rotated?.successor ?? presented };
}
