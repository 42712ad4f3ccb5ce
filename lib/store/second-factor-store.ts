/**
 * A user's second factors (passkeys, authenticator app, recovery codes) and the WebAuthn challenges that came back:
 * one store, whose Prisma implementation is this file with totp-store, recovery-code-store, passkey-store and
 * webauthn-challenge-store. Here: how many factors there are, the ones added lately, and removing all of them at
 * once when the operator resets them, with the audit event and the notice mail in the same transaction.
 */
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { transactionWithMail } from "@/lib/store/mail-transaction";
import type { SecondFactorCount, StoredPasskey, TotpFactor, UsedChallenge } from "@/lib/store/models/second-factor";
import {
  deletePasskey,
  findPasskey,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey,
  storePasskey,
} from "@/lib/store/passkey-store";
import { countUnusedRecoveryCodes, replaceRecoveryCodes, useRecoveryCode } from "@/lib/store/recovery-code-store";
import { deleteTotpFactor, findTotpFactor, storePendingTotp, useTotpStep } from "@/lib/store/totp-store";
import { recordChallengeUse } from "@/lib/store/webauthn-challenge-store";

export interface SecondFactorStore {
  /**
   * The user's passkeys and confirmed app (what can be asked for at sign-in; recovery codes only stand in for them),
   * and whether their company requires one.
   */
  count(userId: string): Promise<SecondFactorCount>;
  /** Removes every factor and recovery code of the user with the notice mail and audit event; how many factors. */
  deleteAll(userId: string, change: { mail: NewOutboxMessage[]; by?: string }, now: Date): Promise<number>;
  /** The factors added since `since` (passkeys, and the app from when it was confirmed), oldest first. */
  listAddedSince(userId: string, since: Date): Promise<{ kind: "passkey" | "app"; addedAt: Date }[]>;
  findTotp(userId: string): Promise<TotpFactor | null>;
  /** A new secret waiting for its first code in the session that started it; false when an app is confirmed. */
  savePendingTotp(
    pending: { userId: string; sealedSecret: string; loginSessionId: string },
    now: Date,
  ): Promise<boolean>;
  /**
   * Uses the time step of a code that matched: only a step later than the last one used counts. `confirm` marks a
   * waiting secret confirmed with its first code (audited), only in the session that started it and while it is
   * not older than `startedAfter`. False when the step was used already, or the factor is not that session's.
   */
  useTotpStep(
    userId: string,
    step: number,
    confirm: { loginSessionId: string; startedAfter: Date } | undefined,
    now: Date,
  ): Promise<boolean>;
  /** Removes the user's app (a confirmed one audited); false when there was none confirmed. */
  deleteTotp(userId: string): Promise<boolean>;
  /** The user's recovery codes become these (stored as their SHA-256), audited. */
  replaceRecoveryCodes(userId: string, codes: string[], now: Date): Promise<void>;
  /** Marks the user's unused code used; false when there is none. */
  useRecoveryCode(userId: string, code: string, now: Date): Promise<boolean>;
  countUnusedRecoveryCodes(userId: string): Promise<number>;
  listPasskeys(userId: string): Promise<StoredPasskey[]>;
  findPasskey(credentialId: string): Promise<StoredPasskey | null>;
  /** Stores a new passkey with its audit event; false when the credential is registered already. */
  savePasskey(passkey: Omit<StoredPasskey, "id" | "createdAt" | "lastUsedAt">, now: Date): Promise<boolean>;
  /** Moves the counter from the value read (`seen`) to the use's; false when a racing use came first. */
  recordPasskeyUse(
    passkey: { id: string; seen: number },
    use: { counter: number; backedUp: boolean },
    now: Date,
  ): Promise<boolean>;
  renamePasskey(userId: string, id: string, name: string): Promise<boolean>;
  /** Removes one of the user's passkeys with its audit event; false when there is no such passkey of theirs. */
  deletePasskey(userId: string, id: string): Promise<boolean>;
  /** Records a challenge's use; false when it was used before. */
  recordChallengeUse(challenge: UsedChallenge, now: Date): Promise<boolean>;
}

export function prismaSecondFactorStore(db: Db): SecondFactorStore {
  return {
    count: (userId) => countSecondFactors(db, userId),
    deleteAll: (userId, change, now) => deleteSecondFactors(db, userId, change, now),
    listAddedSince: (userId, since) => listFactorsAddedSince(db, userId, since),
    findTotp: (userId) => findTotpFactor(db, userId),
    savePendingTotp: (pending, now) => storePendingTotp(db, pending, now),
    useTotpStep: (userId, step, confirm, now) => useTotpStep(db, userId, step, confirm, now),
    deleteTotp: (userId) => deleteTotpFactor(db, userId),
    replaceRecoveryCodes: (userId, codes, now) => replaceRecoveryCodes(db, userId, codes, now),
    useRecoveryCode: (userId, code, now) => useRecoveryCode(db, userId, code, now),
    countUnusedRecoveryCodes: (userId) => countUnusedRecoveryCodes(db, userId),
    listPasskeys: (userId) => listPasskeys(db, userId),
    findPasskey: (credentialId) => findPasskey(db, credentialId),
    savePasskey: (passkey, now) => storePasskey(db, passkey, now),
    recordPasskeyUse: (passkey, use, now) => recordPasskeyUse(db, passkey, use, now),
    renamePasskey: (userId, id, name) => renamePasskey(db, userId, id, name),
    deletePasskey: (userId, id) => deletePasskey(db, userId, id),
    recordChallengeUse: (challenge, now) => recordChallengeUse(db, challenge, now),
  };
}

/**
 * The user's passkeys and confirmed app (what can be asked for at sign-in; recovery codes only stand in for them),
 * and whether their company requires one, in one query.
 */
async function countSecondFactors(db: Db, userId: string): Promise<SecondFactorCount> {
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

function deleteSecondFactors(
  db: Db,
  userId: string,
  change: { mail: NewOutboxMessage[]; by?: string },
  now: Date,
): Promise<number> {
  return transactionWithMail(db, async (tx, queueMail) => {
    const removed =
      (await tx.passkey.deleteMany({ where: { userId } })).count +
      (await tx.totpFactor.deleteMany({ where: { userId } })).count;
    await tx.recoveryCode.deleteMany({ where: { userId } });
    if (removed === 0) return 0;
    await queueMail(change.mail, now);
    await recordAuditEvent(tx, {
      type: "user.second_factors_reset",
      userId,
      details: { by: change.by ?? "operator", removed },
    });
    return removed;
  });
}

async function listFactorsAddedSince(
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
