/** Looks up a presented refresh token by its hash. */
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";

export function findRefreshToken(db: Db, presented: string) {
  return db.refreshToken.findUnique({ where: { tokenHash: hashToken(presented) } });
}
