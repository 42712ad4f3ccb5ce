/**
 * One-time links for a user's own account (`account_links`): a password reset or the confirmation of a new email
 * address. Issuing one replaces the user's earlier link of that purpose (only the newest works); using one is a
 * conditional update of the unused, unexpired row, so that of two concurrent uses exactly one wins. Each change that
 * a link completes is one transaction with its mail (outbox) and audit event.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { transactionWithMail, type QueueMail } from "@/lib/store/mail-transaction";
import { signOutUsers } from "@/lib/store/user-admin-store";
import { endAllLoginSessions } from "@/lib/store/login-session-store";
import { hashToken } from "@/lib/crypto/tokens";
import type {
  AccountLink,
  AccountLinkPurpose,
  ChangeRecord,
  LinkRef,
  NewAccountLink,
} from "@/lib/store/models/account-link";

export interface AccountLinkStore {
  /** Stores a link of `value` (replacing the user's earlier one of the purpose) with its mail and audit event. */
  save(value: string, link: NewAccountLink, change: ChangeRecord, now: Date): Promise<void>;
  /** The link of this value with its user and the user's company, whatever its state, or null. */
  find(value: string): Promise<AccountLink | null>;
  /**
   * Sets a new password through a reset link: the link is used, the password stored, the user's other links closed
   * and everything a sign-in left behind ended (sessions, refresh tokens, unused codes, catalog tickets), in one
   * commit with the change's mail and event. The ended sessions' ids, or null when the link was used meanwhile.
   */
  resetPassword(link: LinkRef, passwordHash: string, change: ChangeRecord, now: Date): Promise<string[] | null>;
  /**
   * Stores a new password and closes the user's links. With `signOutElsewhere`, everything a sign-in left behind
   * ends but the session to keep; otherwise the other sessions and applications keep working. The ended sessions.
   */
  changePassword(
    user: { userId: string; keepSessionId?: string; signOutElsewhere: boolean },
    passwordHash: string,
    change: ChangeRecord,
    now: Date,
  ): Promise<string[]>;
  /**
   * Makes the link's new address the user's email (verified), closes the user's other links and ends their other
   * sessions (the ended ones' ids), or why not: the link was used meanwhile, or the address is another user's or
   * has an invitation waiting since the link was sent.
   */
  /** Whether the address is a user's or has an invitation waiting: an email change to it is refused. */
  isEmailInUse(email: string, now?: Date): Promise<boolean>;
  confirmEmail(
    link: LinkRef & { newEmail: string },
    change: ChangeRecord & { keepSessionId?: string },
    now: Date,
  ): Promise<{ endedSessions: string[] } | "used" | "email_taken">;
  /** The user's unused, current link of a purpose, if any (a pending email change, for the profile page). */
  findOpen(
    userId: string,
    purpose: AccountLinkPurpose,
    now: Date,
  ): Promise<{ newEmail: string | null; expiresAt: Date } | null>;
}

async function record(tx: DbTransaction, queueMail: QueueMail, change: ChangeRecord, now: Date): Promise<void> {
  await queueMail(change.mail, now);
  await recordAuditEvent(tx, change.event);
}

/** What a new link of `value` stores besides its user and purpose (replacing the earlier link's). */
export const linkFields = (value: string, link: NewAccountLink, now: Date) => ({
  tokenHash: hashToken(value),
  newEmail: link.newEmail ?? null,
  sentTo: link.sentTo,
  createdAt: now,
  expiresAt: link.expiresAt,
  usedAt: null,
});

async function storeAccountLink(
  db: Db,
  value: string,
  link: NewAccountLink,
  change: ChangeRecord,
  now: Date,
): Promise<void> {
  const fields = linkFields(value, link, now);
  await transactionWithMail(db, async (tx, queueMail) => {
    await tx.accountLink.upsert({
      where: { userId_purpose: { userId: link.userId, purpose: link.purpose } },
      create: { userId: link.userId, purpose: link.purpose, ...fields },
      update: fields,
    });
    await record(tx, queueMail, change, now);
  });
}

async function findAccountLink(db: Db, value: string): Promise<AccountLink | null> {
  const link = await db.accountLink.findUnique({
    where: { tokenHash: hashToken(value) },
    include: { user: { include: { company: true } } },
  });
  return link && { ...link, purpose: link.purpose as AccountLinkPurpose };
}

/**
 * Marks the link used if it still is the same link (not replaced meanwhile), unused and current; false when another
 * use or a newer link came first, or it expired.
 */
async function useLink(tx: DbTransaction, link: { id: string; tokenHash: string }, now: Date): Promise<boolean> {
  const used = await tx.accountLink.updateMany({
    where: { id: link.id, tokenHash: link.tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return used.count === 1;
}

/**
 * A new password ends whatever was under way with the old one: a reset link asked for before, and a new address
 * waiting for confirmation (which somebody with a stolen session may have asked for).
 */
async function closeOtherLinks(tx: DbTransaction, userId: string, keepId?: string): Promise<void> {
  await tx.accountLink.deleteMany({ where: { userId, ...(keepId ? { id: { not: keepId } } : {}) } });
}

/**
 * Sets a new password through a reset link: the link is used, the password stored, and everything a sign-in left
 * behind ended (sessions, refresh tokens, catalog tickets), in one transaction. Returns the ended sessions' ids, or
 * null when the link was used meanwhile.
 */
async function resetPasswordByLink(
  db: Db,
  link: LinkRef,
  passwordHash: string,
  change: ChangeRecord,
  now: Date,
): Promise<string[] | null> {
  return transactionWithMail(db, async (tx, queueMail) => {
    if (!(await useLink(tx, link, now))) return null;
    await tx.user.update({ where: { id: link.userId }, data: { passwordHash } });
    await closeOtherLinks(tx, link.userId, link.id);
    const ended = await signOutUsers(tx, [link.userId], now, { tickets: true });
    await record(tx, queueMail, change, now);
    return ended;
  });
}

/**
 * Stores a new password. With `signOutElsewhere`, everything a sign-in left behind ends (sessions but the one to
 * keep, refresh tokens, catalog tickets); otherwise the other sessions and applications keep working. Returns the
 * ended sessions' ids.
 */
async function changePasswordHash(
  db: Db,
  user: { userId: string; keepSessionId?: string; signOutElsewhere: boolean },
  passwordHash: string,
  change: ChangeRecord,
  now: Date,
): Promise<string[]> {
  return transactionWithMail(db, async (tx, queueMail) => {
    await tx.user.update({ where: { id: user.userId }, data: { passwordHash } });
    await closeOtherLinks(tx, user.userId);
    const ended = user.signOutElsewhere
      ? await signOutUsers(tx, [user.userId], now, { keepSessionId: user.keepSessionId, tickets: true })
      : [];
    await record(tx, queueMail, change, now);
    return ended;
  });
}

/**
 * Makes the link's new address the user's email (verified), closes the user's other links and ends their other
 * sessions (the ended ones' ids), or why not: the link was used meanwhile, or the address became another user's
 * since the link was sent (checked again here, and by the unique index).
 */
async function confirmEmailByLink(
  db: Db,
  link: LinkRef & { newEmail: string },
  change: ChangeRecord & { keepSessionId?: string },
  now: Date,
): Promise<{ endedSessions: string[] } | "used" | "email_taken"> {
  try {
    return await transactionWithMail(db, async (tx, queueMail) => {
      if (await isEmailInUse(tx, link.newEmail)) return "email_taken" as const;
      if (!(await useLink(tx, link, now))) return "used" as const;
      await tx.user.update({ where: { id: link.userId }, data: { email: link.newEmail, emailVerified: true } });
      // The old mailbox is cut off: reset links it received, and the sign-ins of whoever may still read it.
      await closeOtherLinks(tx, link.userId, link.id);
      const endedSessions = await endAllLoginSessions(tx, link.userId, now, change.keepSessionId);
      await record(tx, queueMail, change, now);
      return { endedSessions };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "email_taken";
    throw error;
  }
}

/**
 * Whether an address is a user's or has a live invitation waiting: it cannot become another user's email, when asked
 * for or confirmed. An expired invitation has lapsed.
 */
async function isEmailInUse(db: Db | DbTransaction, email: string, now = new Date()): Promise<boolean> {
  const [user, invitation] = await Promise.all([
    db.user.findUnique({ where: { email }, select: { id: true } }),
    db.invitation.findFirst({ where: { email, acceptedAt: null, expiresAt: { gt: now } }, select: { id: true } }),
  ]);
  return Boolean(user || invitation);
}

export function prismaAccountLinkStore(db: Db): AccountLinkStore {
  return {
    save: (value, link, change, now) => storeAccountLink(db, value, link, change, now),
    find: (value) => findAccountLink(db, value),
    isEmailInUse: (email, now) => isEmailInUse(db, email, now),
    resetPassword: (link, passwordHash, change, now) => resetPasswordByLink(db, link, passwordHash, change, now),
    changePassword: (user, passwordHash, change, now) => changePasswordHash(db, user, passwordHash, change, now),
    confirmEmail: (link, change, now) => confirmEmailByLink(db, link, change, now),
    findOpen: (userId, purpose, now) =>
      db.accountLink.findFirst({
        where: { userId, purpose, usedAt: null, expiresAt: { gt: now } },
        select: { newEmail: true, expiresAt: true },
      }),
  };
}
