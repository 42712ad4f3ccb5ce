/**
 * Refresh tokens at rest, by the SHA-256 of their value: finding one, storing a new one, rotating one out together with
 * its successor, and revoking. Sliding the expiry on the hot path is a grouped statement (lib/db/statements/tokens.ts)
 * the grant calls through `slideRefreshToken`.
 *
 * Revoking: a rotation in flight may commit a successor that the revoking statement could not see (on PostgreSQL a
 * statement reads what was committed when it began, and it waits for the row the rotation locked, not for the row
 * the rotation inserts). So the statement runs again until it finds nothing left to revoke; a rotation that starts
 * after a pass finds its token revoked and inserts nothing.
 */
import { hashToken } from "@/lib/crypto/tokens";
import { REFRESH_TOKEN_LIFETIME_SECONDS } from "@/lib/config/policy";
import type { Db } from "@/lib/db/prisma";
import type { RefreshToken } from "@/lib/db/rows";

export { slideRefreshToken, type UsedRefreshToken } from "@/lib/db/statements/tokens";

/** Far more passes than rotations can race one revocation; only bounds the loop. */
const MAX_PASSES = 32;

export type RefreshTokenSelection =
  { familyId: string } | { authorizationCodeId: string } | { userId: string; clientId: string };

/** What a new token of a grant holds besides its value; `scopes` is the JSON list as stored. */
export type RefreshTokenGrant = Pick<
  RefreshToken,
  | "familyId"
  | "clientId"
  | "userId"
  | "consentId"
  | "authorizationCodeId"
  | "loginSessionId"
  | "scopes"
  | "authTime"
  | "amr"
  | "dpopJkt"
>;

const expiryFrom = (now: Date) => new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000);

export function findRefreshToken(db: Db, presented: string): Promise<RefreshToken | null> {
  return db.refreshToken.findUnique({ where: { tokenHash: hashToken(presented) } });
}

/** Whether the token of this value is rotated out or revoked, or null when there is none. */
export function refreshTokenState(db: Db, value: string) {
  return db.refreshToken.findUnique({
    where: { tokenHash: hashToken(value) },
    select: { rotatedAt: true, revokedAt: true },
  });
}

/** Stores a new token of `value` for the grant, valid for the sliding year from `now`. */
export async function storeRefreshToken(
  db: Pick<Db, "refreshToken">,
  value: string,
  grant: RefreshTokenGrant,
  now: Date,
): Promise<void> {
  await db.refreshToken.create({
    data: { ...grant, tokenHash: hashToken(value), createdAt: now, expiresAt: expiryFrom(now) },
  });
}

/** Rotates `token` out and stores `successor` in one transaction; false when another request rotated it first. */
export function rotateRefreshToken(db: Db, token: RefreshToken, successor: string, now: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const rotated = await tx.refreshToken.updateMany({
      where: { id: token.id, revokedAt: null, rotatedAt: null, expiresAt: { gt: now } },
      data: { rotatedAt: now, lastUsedAt: now },
    });
    if (rotated.count === 0) return false;
    const { familyId, clientId, userId, consentId, authorizationCodeId, loginSessionId, scopes, authTime, amr } = token;
    const grant = { familyId, clientId, userId, consentId, authorizationCodeId, loginSessionId, scopes, authTime, amr };
    await storeRefreshToken(tx, successor, { ...grant, dpopJkt: token.dpopJkt }, now);
    return true;
  });
}

/** Revokes every live token of the selection, successors committed meanwhile included; returns how many. */
export async function revokeRefreshTokens(
  db: Pick<Db, "refreshToken">,
  selection: RefreshTokenSelection,
  now: Date,
): Promise<number> {
  let revoked = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const { count } = await db.refreshToken.updateMany({
      where: { ...selection, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) break;
    revoked += count;
  }
  return revoked;
}

/** Which client each of the user's unrevoked tokens belongs to and when it was last used. */
export function listRefreshTokenUses(db: Db, userId: string): Promise<{ clientId: string; lastUsedAt: Date | null }[]> {
  return db.refreshToken.findMany({ where: { userId, revokedAt: null }, select: { clientId: true, lastUsedAt: true } });
}
