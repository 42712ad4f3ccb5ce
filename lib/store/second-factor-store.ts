/**
 * A user's second factors taken together (passkeys, authenticator app, recovery codes): how many there are, and
 * removing all of them at once when the operator resets them, with the audit event and the notice mail in the same
 * transaction.
 */
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";

export interface SecondFactorCount {
  passkeys: number;
  /** a confirmed authenticator app */
  totp: boolean;
  /** the user's company requires a second factor */
  required: boolean;
}

/**
 * The user's passkeys and confirmed app (what can be asked for at sign-in; recovery codes only stand in for them),
 * and whether their company requires one, in one query.
 */
export async function countSecondFactors(db: Db, userId: string): Promise<SecondFactorCount> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      company: { select: { requireSecondFactor: true } },
      totpFactor: { select: { confirmedAt: true } },
      _count: { select: { passkeys: true } },
    },
  });
  return {
    passkeys: user?._count.passkeys ?? 0,
    totp: Boolean(user?.totpFactor?.confirmedAt),
    required: user?.company.requireSecondFactor ?? false,
  };
}

export function deleteSecondFactors(
  db: Db,
  userId: string,
  change: { mail: NewOutboxMessage[]; by?: string },
  now: Date,
): Promise<number> {
  return db.$transaction(async (tx) => {
    const removed =
      (await tx.passkey.deleteMany({ where: { userId } })).count +
      (await tx.totpFactor.deleteMany({ where: { userId } })).count;
    await tx.recoveryCode.deleteMany({ where: { userId } });
    if (removed === 0) return 0;
    if (change.mail.length > 0)
      await tx.outboxMessage.createMany({
        data: change.mail.map((m) => ({ ...m, nextAttemptAt: now, createdAt: now })),
      });
    await recordAuditEvent(tx, {
      type: "user.second_factors_reset",
      userId,
      details: { by: change.by ?? "operator", removed },
    });
    return removed;
  });
}

/** The user's second factors added since `since` (passkeys, and the app from when it was confirmed), oldest first. */
export async function listFactorsAddedSince(
  db: Db,
  userId: string,
  since: Date,
): Promise<{ kind: "passkey" | "app"; addedAt: Date }[]> {
  const [passkeys, app] = await Promise.all([
    db.passkey.findMany({ where: { userId, createdAt: { gte: since } }, select: { createdAt: true } }),
    db.totpFactor.findFirst({ where: { userId, confirmedAt: { gte: since } }, select: { confirmedAt: true } }),
  ]);
  return [
    ...passkeys.map((passkey) => ({ kind: "passkey" as const, addedAt: passkey.createdAt })),
    ...(app?.confirmedAt ? [{ kind: "app" as const, addedAt: app.confirmedAt }] : []),
  ].sort((a, b) => a.addedAt.getTime() - b.addedAt.getTime());
}
