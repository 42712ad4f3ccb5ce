/**
 * Revoking refresh tokens. A rotation in flight (lib/oauth/token/refresh-rotation.ts) may commit a successor that the
 * revoking statement could not see: on PostgreSQL a statement reads what was committed when it began, and it waits
 * for the row the rotation locked, not for the row the rotation inserts. So the statement runs again until it finds
 * nothing left to revoke; a rotation that starts after a pass finds its token revoked and inserts nothing.
 */
import type { Db } from "@/lib/db/prisma";

/** Far more passes than rotations can race one revocation; only bounds the loop. */
const MAX_PASSES = 32;

export type RefreshTokenSelection =
  { familyId: string } | { authorizationCodeId: string } | { userId: string; clientId: string };

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
