/**
 * grant_type=refresh_token (RFC 6749 §6). Every use moves the token's expiry to one year from now (sliding). Per
 * client policy the token is reused (the seed's behaviour) or rotated: a new refresh token each time, and a
 * rotated-out token presented later than ROTATION_GRACE_SECONDS revokes its whole family, while a retry within that
 * grace period (a client that raced itself) gets fresh tokens of the same family. Each state change is one
 * conditional update, so concurrent requests leave nothing half-written.
 */
import { optional, type Parameters } from "@/lib/http/request-parameters";
import type { RefreshToken } from "@/lib/db/generated/sqlite/client";
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { invalidGrant, invalidRequest, invalidScope } from "@/lib/oauth/errors";
import { findRefreshToken } from "@/lib/oauth/token/find-refresh-token";
import { issueUserTokens, REFRESH_TOKEN_LIFETIME_SECONDS, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { ServiceContext } from "@/lib/service-context";

export const ROTATION_GRACE_SECONDS = 10;

function narrowedScopes(granted: string[], requested: string | undefined): string[] {
  if (requested === undefined) return granted;
  const scopes = [...new Set(requested.split(" ").filter(Boolean))];
  const extra = scopes.find((scope) => !granted.includes(scope));
  if (extra !== undefined) throw invalidScope(`scope "${extra}" was not granted to this refresh token`);
  if (scopes.length === 0) throw invalidScope("scope must name at least one granted scope");
  return scopes;
}

async function revokeFamily(context: ServiceContext, familyId: string, now: Date): Promise<void> {
  await context.db.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
}

/** Reuse policy: extend the token in place; returns false when it was revoked or expired meanwhile. */
async function slide(context: ServiceContext, token: RefreshToken, now: Date): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000);
  const updated = await context.db.refreshToken.updateMany({
    where: { id: token.id, revokedAt: null, expiresAt: { gt: now } },
    data: { expiresAt, lastUsedAt: now },
  });
  return updated.count === 1;
}

/**
 * Rotate policy: mark the token rotated out. Returns false when the presented token may not be used: rotated out
 * longer ago than the grace period (then its family is revoked), or revoked meanwhile.
 */
async function rotateOut(context: ServiceContext, token: RefreshToken, now: Date): Promise<boolean> {
  const updated = await context.db.refreshToken.updateMany({
    where: { id: token.id, revokedAt: null, rotatedAt: null },
    data: { rotatedAt: now, lastUsedAt: now },
  });
  if (updated.count === 1) return true;
  const current = await context.db.refreshToken.findUnique({ where: { id: token.id } });
  if (!current || current.revokedAt) return false;
  const withinGrace = current.rotatedAt !== null && now.getTime() - current.rotatedAt.getTime() <= ROTATION_GRACE_SECONDS * 1000;
  if (!withinGrace) await revokeFamily(context, token.familyId, now);
  return withinGrace;
}

export async function refreshTokens(context: ServiceContext, client: ClientWithSecrets, params: Parameters, now = new Date()): Promise<TokenResponseBody> {
  const presented = optional(params, "refresh_token");
  if (presented === undefined) throw invalidRequest("refresh_token is missing");
  const { db } = context;
  const token = await findRefreshToken(db, presented);
  if (!token || token.clientId !== client.id) throw invalidGrant("the refresh token is not valid");
  if (token.revokedAt) throw invalidGrant("the refresh token was revoked");
  if (token.expiresAt <= now) throw invalidGrant("the refresh token has expired");
  const granted = JSON.parse(token.scopes) as string[];
  const scopes = narrowedScopes(granted, optional(params, "scope"));

  const rotate = client.refreshTokenPolicy === "rotate";
  const usable = rotate ? await rotateOut(context, token, now) : await slide(context, token, now);
  if (!usable) throw invalidGrant(rotate ? "the refresh token was already used; its family has been revoked" : "the refresh token was revoked");

  const user = await db.user.findUnique({ where: { id: token.userId }, include: { company: true } });
  if (!user || !user.active) throw invalidGrant("the user of this refresh token is no longer active");
  if (token.consentId) await db.consent.updateMany({ where: { id: token.consentId }, data: { lastUsedAt: now } });

  const body = await issueUserTokens(
    context,
    {
      client,
      user,
      scopes,
      authTime: token.authTime,
      sessionId: token.loginSessionId,
      requestedScope: optional(params, "scope") ?? granted.join(" "),
      // Rotation hands out a successor in the same family with the original grant; reuse keeps the token.
      newRefreshToken: rotate ? { familyId: token.familyId, scopes: granted, consentId: token.consentId, authorizationCodeId: token.authorizationCodeId } : undefined,
    },
    now,
  );
  return rotate ? body : { ...body, refresh_token: presented };
}
