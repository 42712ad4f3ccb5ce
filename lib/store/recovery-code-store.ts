/**
 * Recovery codes at rest (`recovery_codes`): the SHA-256 of each, ten at a time. Making new ones replaces all the
 * user's codes in one transaction; using one is a conditional update, so a code counts once.
 */
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";

export function replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[], now: Date): Promise<void> {
  return db.$transaction(async (tx) => {
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.recoveryCode.createMany({ data: codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })) });
    await recordAuditEvent(tx, { type: "user.recovery_codes_generated", userId });
  });
}

/** Marks the user's unused code of this hash used; false when there is none. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const { count } = await db.recoveryCode.updateMany({
    where: { userId, codeHash, usedAt: null },
    data: { usedAt: now },
  });
  return count === 1;
}

export function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  return db.recoveryCode.count({ where: { userId, usedAt: null } });
}
