/**
 * One-time links for a user's own account (`account_links`): a password reset or the confirmation of a new email
 * address. Issuing one replaces the user's earlier link of that purpose (only the newest works); using one is a
 * conditional update of the unused, unexpired row, so that of two concurrent uses exactly one wins. Each change that
 * a link completes is one transaction with its mail (outbox) and audit event.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { signOutUsers } from "@/lib/store/user-admin-store";
import { endAllLoginSessions } from "@/lib/store/login-session-store";
import type { NewOutboxMessage } from "@/lib/store/outbox-store";

export type AccountLinkPurpose = "password_reset" | "email_change";

export interface NewAccountLink {
  userId: string;
  purpose: AccountLinkPurpose;
  tokenHash: string;
  newEmail?: string;
  /** the address the link is mailed to: it works only while the account has that address */
  sentTo: string;
  expiresAt: Date;
}

/** What a change writes besides itself: the mail it sends and its audit event. */
export interface ChangeRecord {
  mail: NewOutboxMessage[];
  event: AuditEvent;
}

async function record(tx: DbTransaction, change: ChangeRecord, now: Date): Promise<void> {
  if (change.mail.length > 0)
    await tx.outboxMessage.createMany({
      data: change.mail.map((mail) => ({ ...mail, nextAttemptAt: now, createdAt: now })),
    });
  await recordAuditEvent(tx, change.event);
}

/** Stores the link (replacing the user's earlier one of the purpose) with its mail and audit event. */
export async function storeAccountLink(db: Db, link: NewAccountLink, change: ChangeRecord, now: Date): Promise<void> {
  const fields = {
    tokenHash: link.tokenHash,
    newEmail: link.newEmail ?? null,
    sentTo: link.sentTo,
    createdAt: now,
    expiresAt: link.expiresAt,
    usedAt: null,
  };
  await db.$transaction(async (tx) => {
    await tx.accountLink.upsert({
      where: { userId_purpose: { userId: link.userId, purpose: link.purpose } },
      create: { userId: link.userId, purpose: link.purpose, ...fields },
      update: fields,
    });
    await record(tx, change, now);
  });
}

/** The link of a token hash with its user and the user's company. */
export function findAccountLink(db: Db, tokenHash: string) {
  return db.accountLink.findUnique({ where: { tokenHash }, include: { user: { include: { company: true } } } });
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
export async function resetPasswordByLink(
  db: Db,
  link: { id: string; tokenHash: string; userId: string },
  passwordHash: string,
  change: ChangeRecord,
  now: Date,
): Promise<string[] | null> {
  return db.$transaction(async (tx) => {
    if (!(await useLink(tx, link, now))) return null;
    await tx.user.update({ where: { id: link.userId }, data: { passwordHash } });
    await closeOtherLinks(tx, link.userId, link.id);
    const ended = await signOutUsers(tx, [link.userId], now, { tickets: true });
    await record(tx, change, now);
    return ended;
  });
}

/**
 * Stores a new password. With `signOutElsewhere`, everything a sign-in left behind ends (sessions but the one to
 * keep, refresh tokens, catalog tickets); otherwise the other sessions and applications keep working. Returns the
 * ended sessions' ids.
 */
export async function changePasswordHash(
  db: Db,
  user: { userId: string; keepSessionId?: string; signOutElsewhere: boolean },
  passwordHash: string,
  change: ChangeRecord,
  now: Date,
): Promise<string[]> {
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.userId }, data: { passwordHash } });
    await closeOtherLinks(tx, user.userId);
    const ended = user.signOutElsewhere
      ? await signOutUsers(tx, [user.userId], now, { keepSessionId: user.keepSessionId, tickets: true })
      : [];
    await record(tx, change, now);
    return ended;
  });
}

/**
 * Makes the link's new address the user's email (verified), closes the user's other links and ends their other
 * sessions (the ended ones' ids), or why not: the link was used meanwhile, or the address became another user's
 * since the link was sent (checked again here, and by the unique index).
 */
export async function confirmEmailByLink(
  db: Db,
  link: { id: string; tokenHash: string; userId: string; newEmail: string },
  change: ChangeRecord & { keepSessionId?: string },
  now: Date,
): Promise<{ endedSessions: string[] } | "used" | "email_taken"> {
  try {
    return await db.$transaction(async (tx) => {
      if (await isEmailInUse(tx, link.newEmail)) return "email_taken" as const;
      if (!(await useLink(tx, link, now))) return "used" as const;
      await tx.user.update({ where: { id: link.userId }, data: { email: link.newEmail, emailVerified: true } });
      // The old mailbox is cut off: reset links it received, and the sign-ins of whoever may still read it.
      await closeOtherLinks(tx, link.userId, link.id);
      const endedSessions = await endAllLoginSessions(tx, link.userId, now, change.keepSessionId);
      await record(tx, change, now);
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
export async function isEmailInUse(db: Db | DbTransaction, email: string, now = new Date()): Promise<boolean> {
  const [user, invitation] = await Promise.all([
    db.user.findUnique({ where: { email }, select: { id: true } }),
    db.invitation.findFirst({ where: { email, acceptedAt: null, expiresAt: { gt: now } }, select: { id: true } }),
  ]);
  return Boolean(user || invitation);
}

/** The user's unused, current link of a purpose, if any (a pending email change, for the profile page). */
export function findOpenAccountLink(db: Db, userId: string, purpose: AccountLinkPurpose, now = new Date()) {
  return db.accountLink.findFirst({
    where: { userId, purpose, usedAt: null, expiresAt: { gt: now } },
    select: { newEmail: true, expiresAt: true },
  });
}
