/**
 * Sign-in notices (`sign_in_notices`): the mail that told a person of a sign-in from a browser new to their account,
 * kept with the SHA-256 of its one-time "not me" link. A notice is stored in the transaction that queues its mail;
 * its use is a conditional update of the unused, unexpired row, so that of two concurrent uses exactly one wins, in
 * one commit with everything it ends and its mail and audit event.
 */
import { MAX_USER_AGENT_LENGTH } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { transactionWithMail } from "@/lib/store/mail-transaction";
import type { ChangeRecord } from "@/lib/store/models/account-link";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type { NewSignInNotice, SignInNotice } from "@/lib/store/models/sign-in-notice";
import { signOutUsers } from "@/lib/store/user-admin-store";

/** What disowning a sign-in changes besides the notice: its mail and event, and the password no longer usable. */
export type DisownRecord = ChangeRecord & { passwordHash: string };

export interface SignInNoticeStore {
  /** Stores the notice under its link's `value` (only the hash is kept), with its mail, in one transaction. */
  save(value: string, notice: NewSignInNotice, mail: NewOutboxMessage, now: Date): Promise<void>;
  /** The notice of this link value with its user and the user's company, whatever its state, or null. */
  find(value: string): Promise<SignInNotice | null>;
  /**
   * "Not me": the link is used (if it still is unused and current) and everything the user's sign-ins left behind
   * ends (sessions, refresh tokens, unused codes, catalog tickets), in one commit with the change's mail and event.
   * The ended sessions' ids, or null when another use came first or the link expired.
   */
  disown(noticeId: string, userId: string, change: DisownRecord, now: Date): Promise<string[] | null>;
}

/** The stored fields of a new notice; the user agent cut as a session's is. */
export const noticeFields = (value: string, notice: NewSignInNotice, now: Date) => ({
  userId: notice.userId,
  tokenHash: hashToken(value),
  sentTo: notice.sentTo,
  signedInAt: notice.signedInAt,
  ipAddress: notice.ipAddress ?? null,
  userAgent: notice.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
  createdAt: now,
  expiresAt: notice.expiresAt,
  usedAt: null,
});

async function saveNotice(db: Db, value: string, notice: NewSignInNotice, mail: NewOutboxMessage, now: Date) {
  await transactionWithMail(db, async (tx, queueMail) => {
    await tx.signInNotice.create({ data: noticeFields(value, notice, now) });
    await queueMail([mail], now);
  });
}

async function findNotice(db: Db, value: string): Promise<SignInNotice | null> {
  const row = await db.signInNotice.findUnique({
    where: { tokenHash: hashToken(value) },
    include: { user: { include: { company: true } } },
  });
  if (!row) return null;
  const { tokenHash: _hash, ...notice } = row;
  return notice;
}

async function disownSignIn(db: Db, noticeId: string, userId: string, change: DisownRecord, now: Date) {
  return transactionWithMail(db, async (tx, queueMail) => {
    const used = await tx.signInNotice.updateMany({
      where: { id: noticeId, userId, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count !== 1) return null;
    const ended = await signOutUsers(tx, [userId], now, { tickets: true });
    await tx.user.update({ where: { id: userId }, data: { passwordHash: change.passwordHash } });
    await queueMail(change.mail, now);
    await recordAuditEvent(tx, change.event);
    return ended;
  });
}

export function prismaSignInNoticeStore(db: Db): SignInNoticeStore {
  return {
    save: (value, notice, mail, now) => saveNotice(db, value, notice, mail, now),
    find: (value) => findNotice(db, value),
    disown: (noticeId, userId, change, now) => disownSignIn(db, noticeId, userId, change, now),
  };
}
