/**
 * Refresh tokens at rest, by the SHA-256 of their value: finding one, storing a new one, sliding its expiry, rotating
 * one out together with its successor, and revoking. Sliding on the hot path is a grouped statement
 * (lib/db/statements/tokens.ts).
 *
 * Revoking: a rotation in flight may commit a successor that the revoking statement could not see (on PostgreSQL a
 * statement reads what was committed when it began, and it waits for the row the rotation locked, not for the row
 * the rotation inserts). So the statement runs again until it finds nothing left to revoke; a rotation that starts
 * after a pass finds its token revoked and inserts nothing.
 */
import { hashToken } from "@/lib/crypto/tokens";
import { REFRESH_TOKEN_LIFETIME_SECONDS } from "@/lib/config/policy";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { RefreshToken as RefreshTokenRow } from "@/lib/db/rows";
import { slideRefreshToken } from "@/lib/db/statements/tokens";
import { parseAmr } from "@/lib/store/models/authentication";
import type {
  RefreshToken,
  RefreshTokenGrant,
  RefreshTokenSelection,
  UsedRefreshToken,
} from "@/lib/store/models/token";

export interface RefreshTokenStore {
  /** The token of this value whatever its state (rotated out, revoked, expired), or null. */
  find(presented: string): Promise<RefreshToken | null>;
  /** Stores a new token of `value` for the grant, valid for the sliding year from `now`. */
  save(value: string, grant: RefreshTokenGrant, now: Date): Promise<void>;
  /** Moves a usable token's expiry to a year from `now`; undefined when it is unknown, another client's or unusable. */
  slide(presented: string, clientId: string, now: Date): Promise<UsedRefreshToken | undefined>;
  /** Rotates `token` out and stores `successor` with its grant in one commit; false when it was rotated out first. */
  rotate(token: RefreshToken, successor: string, now: Date): Promise<boolean>;
  /** Revokes every live token of the selection, successors committed meanwhile included; returns how many. */
  revoke(selection: RefreshTokenSelection, now: Date): Promise<number>;
  /** Which client each of the user's unrevoked tokens belongs to and when it was last used. */
  listUses(userId: string): Promise<{ clientId: string; lastUsedAt: Date | null }[]>;
}

/** Far more passes than rotations can race one revocation; only bounds the loop. */
const MAX_PASSES = 32;

export const refreshTokenExpiry = (now: Date) => new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000);

const tokenOf = ({ tokenHash: _hash, scopes, amr, resources, ...row }: RefreshTokenRow): RefreshToken => ({
  ...row,
  scopes: JSON.parse(scopes) as string[],
  amr: parseAmr(amr),
  resources: JSON.parse(resources) as string[],
});

/** What a successor inherits from the token it replaces. */
export function grantOf(token: RefreshTokenGrant): RefreshTokenGrant {
  const { familyId, clientId, userId, consentId, authorizationCodeId, loginSessionId } = token;
  const { scopes, authTime, amr, dpopJkt, resources } = token;
  const facts = { familyId, clientId, userId, consentId, authorizationCodeId, loginSessionId };
  return { ...facts, scopes, authTime, amr, dpopJkt, resources };
}

function rowOf(value: string, grant: RefreshTokenGrant, now: Date) {
  const { scopes, amr, resources, ...facts } = grant;
  return {
    ...facts,
    scopes: JSON.stringify(scopes),
    amr: JSON.stringify(amr),
    resources: JSON.stringify(resources),
    tokenHash: hashToken(value),
    createdAt: now,
    expiresAt: refreshTokenExpiry(now),
  };
}

/** Revokes in `db`, which may be a transaction another store's write is part of (a consent's revocation). */
export async function revokeRefreshTokens(
  db: Pick<DbTransaction, "refreshToken">,
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

export function prismaRefreshTokenStore(db: Db): RefreshTokenStore {
  return {
    async find(presented) {
      const row = await db.refreshToken.findUnique({ where: { tokenHash: hashToken(presented) } });
      return row && tokenOf(row);
    },
    async save(value, grant, now) {
      await db.refreshToken.create({ data: rowOf(value, grant, now) });
    },
    async slide(presented, clientId, now) {
      const row = await slideRefreshToken(db, hashToken(presented), clientId, now, refreshTokenExpiry(now));
      if (!row) return undefined;
      const [scopes, resources] = [JSON.parse(row.scopes) as string[], JSON.parse(row.resources) as string[]];
      return { ...row, clientId, scopes, amr: parseAmr(row.amr), resources };
    },
    rotate(token, successor, now) {
      return db.$transaction(async (tx) => {
        const rotated = await tx.refreshToken.updateMany({
          where: { id: token.id, revokedAt: null, rotatedAt: null, expiresAt: { gt: now } },
          data: { rotatedAt: now, lastUsedAt: now },
        });
        if (rotated.count === 0) return false;
        await tx.refreshToken.create({ data: rowOf(successor, grantOf(token), now) });
        return true;
      });
    },
    revoke: (selection, now) => revokeRefreshTokens(db, selection, now),
    listUses: (userId) =>
      db.refreshToken.findMany({
        where: { userId, revokedAt: null },
        select: { clientId: true, lastUsedAt: true },
      }),
  };
}
