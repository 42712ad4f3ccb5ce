/**
 * Recovery codes at rest (`recovery_codes`): the SHA-256 of each, ten at a time. Making new ones replaces all the
 * user's codes in one transaction; using one is a conditional update, so a code counts once.
 */
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";

export function replaceRecoveryCodes(db: Db, userId: string, codes: string[], now: Date): Promise<void> {
  return db.$transaction(async (tx) => {
    await tx.recoveryCode.deleteMany({ where: { userId } });
    const rows = codes.map((code) => ({ userId, codeHash: hashToken(code), createdAt: now }));
    await tx.recoveryCode.createMany({ data: rows });
    await recordAuditEvent(tx, { type: "user.recovery_codes_generated", userId });
  });
}

export async function useRecoveryCode(db: Db, userId: string, code: string, now: Date): Promise<boolean> {
  const { count } = await db.recoveryCode.updateMany({
    where: { userId, codeHash: hashToken(code), usedAt: null },
    data: { usedAt: now },
  });
  return count === 1;
}

export function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  return db.recoveryCode.count({ where: { userId, usedAt: null } });
}
