/**
 * Authenticator apps at rest (`totp_factors`, one per user): the secret sealed with SECRET_KEY (sealing is the
 * caller's), when it was confirmed, and the last time step used. Using a step is a conditional update, so that a
 * code counts once even when two requests carry it at the same moment.
 */
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { TotpFactor } from "@/lib/store/models/second-factor";

export function findTotpFactor(db: Db, userId: string): Promise<TotpFactor | null> {
  return db.totpFactor.findUnique({ where: { userId } });
}

/**
 * A new secret waiting for its first code in the login session that started it; replaces one that waits (a
 * confirmed one is never replaced here).
 */
export async function storePendingTotp(
  db: Db,
  pending: { userId: string; sealedSecret: string; loginSessionId: string },
  now: Date,
): Promise<boolean> {
  const { userId, sealedSecret, loginSessionId } = pending;
  const existing = await db.totpFactor.findUnique({ where: { userId }, select: { confirmedAt: true } });
  if (existing?.confirmedAt) return false;
  await db.totpFactor.upsert({
    where: { userId },
    create: { userId, sealedSecret, loginSessionId, createdAt: now },
    update: { sealedSecret, loginSessionId, createdAt: now, lastUsedStep: null },
  });
  return true;
}

/**
 * Uses the time step of a code that matched: only a step later than the last one used counts. `confirm` marks a
 * waiting secret confirmed with its first code (audited), only in the session that started it and while it is not
 * older than `startedAfter`. False when the step was used already, or the factor went or is not that session's.
 */
export async function useTotpStep(
  db: Db,
  userId: string,
  step: number,
  confirm: { loginSessionId: string; startedAfter: Date } | undefined,
  now: Date,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.totpFactor.updateMany({
      where: {
        userId,
        ...(confirm
          ? { confirmedAt: null, loginSessionId: confirm.loginSessionId, createdAt: { gt: confirm.startedAfter } }
          : { confirmedAt: { not: null } }),
        OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }],
      },
      data: { lastUsedStep: step, ...(confirm ? { confirmedAt: now, loginSessionId: null } : {}) },
    });
    if (count === 1 && confirm) await recordAuditEvent(tx, { type: "user.totp_enabled", userId });
    return count === 1;
  });
}

/** Removes the user's authenticator app (a confirmed one audited); false when there was none confirmed. */
export function deleteTotpFactor(db: Db, userId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const factor = await tx.totpFactor.findUnique({ where: { userId }, select: { confirmedAt: true } });
    const removed = (await tx.totpFactor.deleteMany({ where: { userId } })).count === 1;
    const confirmed = removed && Boolean(factor?.confirmedAt);
    if (confirmed) await recordAuditEvent(tx, { type: "user.totp_removed", userId });
    return confirmed;
  });
}
