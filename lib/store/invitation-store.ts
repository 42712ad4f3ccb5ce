/**
 * Invitations (`invitations`): one row per email address. Storing invitations, their mail and audit events is one
 * transaction, in chunks for a bulk import; accepting one marks it used and creates the user in one transaction,
 * guarded against a concurrent twin by a conditional update of the unused row. Sending an invitation again in the same
 * company replaces its link but keeps its id, which the management API names it by.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { recordAuditEvent, recordAuditEvents } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { transactionWithMail } from "@/lib/store/mail-transaction";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { bindDb } from "@/lib/store/bind-db";

interface NewInvitation {
  email: string;
  companyId: string;
  role: string;
  language: string;
  /** the names the inviter gave, offered on the invitation page */
  givenName?: string;
  familyName?: string;
  tokenHash: string;
  invitedByUserId?: string;
  expiresAt: Date;
}

export interface PendingInvitation {
  id: string;
  email: string;
  companyId: string;
  role: string;
  language: string;
  givenName: string | null;
  familyName: string | null;
  invitedByUserId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** The invitation behind a link, with its company's name and state. */
interface InvitationOfLink extends PendingInvitation {
  acceptedAt: Date | null;
  company: { name: string; active: boolean };
}

export interface InvitationToStore {
  invitation: NewInvitation;
  mail: NewOutboxMessage;
  event: AuditEvent;
}

/** Which pending invitations to list: of a company, of an address, one by its id; any combination. */
type PendingWhere = { companyId?: string; email?: string; id?: string };

/** Why invitations could not be stored: the address is a user's, or another company's invitation is pending. */
export type InvitationConflict = { email: string; reason: "already_user" | "invited_elsewhere" };

async function conflictsOf(tx: DbTransaction, entries: NewInvitation[], now: Date): Promise<InvitationConflict[]> {
  const emails = entries.map((entry) => entry.email);
  const users = await tx.user.findMany({ where: { email: { in: emails } }, select: { email: true } });
  if (users.length > 0) return users.map(({ email }) => ({ email, reason: "already_user" as const }));
  // Another company's live invitation is that company's to revoke or send again; an expired one has lapsed.
  const pending = await tx.invitation.findMany({
    where: { email: { in: emails }, acceptedAt: null, expiresAt: { gt: now } },
    select: { email: true, companyId: true },
  });
  const companyOf = new Map(entries.map((entry) => [entry.email, entry.companyId]));
  return pending
    .filter((row) => row.companyId !== companyOf.get(row.email))
    .map(({ email }) => ({ email, reason: "invited_elsewhere" as const }));
}

/**
 * Stores the invitations, replacing any earlier one for the same address in the same company (its link stops
 * working), with their mail and audit events, chunk by chunk as they are prepared (a bulk import holds one chunk in
 * memory, not the file), all in one transaction. Nothing is written when any address conflicts.
 */
async function storeInvitations(
  db: Db,
  chunks: AsyncIterable<InvitationToStore[]>,
  now: Date,
): Promise<{ stored: number } | { conflicts: InvitationConflict[] }> {
  const rollBack = new Error("conflicts");
  let conflicts: InvitationConflict[] = [];
  let firstEmail: string | undefined;
  try {
    return await transactionWithMail(
      db,
      async (tx, queueMail) => {
        let stored = 0;
        for await (const chunk of chunks) {
          const invitations = chunk.map((entry) => entry.invitation);
          firstEmail = invitations[0]?.email;
          conflicts = await conflictsOf(tx, invitations, now);
          if (conflicts.length > 0) throw rollBack;
          const emails = invitations.map((entry) => entry.email);
          const kept = await idsKept(tx, invitations);
          await tx.invitation.deleteMany({ where: { email: { in: emails } } });
          // A replaced invitation's mail that has not left yet would carry a dead link.
          await dropQueuedInvitationMail(tx, emails);
          await tx.invitation.createMany({
            data: invitations.map((entry) => ({ ...entry, id: kept.get(entry.email), createdAt: now })),
          });
          await queueMail(
            chunk.map((entry) => entry.mail),
            now,
          );
          await recordAuditEvents(
            tx,
            chunk.map((entry) => entry.event),
          );
          stored += chunk.length;
        }
        return { stored };
      },
      { timeout: 300_000 },
    );
  } catch (error) {
    if (error === rollBack) return { conflicts };
    // A concurrent invitation of the same address committed first.
    if (isUniqueViolation(error)) return { conflicts: [{ email: firstEmail ?? "", reason: "invited_elsewhere" }] };
    throw error;
  }
}

/** The ids of the pending invitations sent again in the same company: the invitation stays the one named by its id. */
async function idsKept(tx: Pick<DbTransaction, "invitation">, entries: NewInvitation[]): Promise<Map<string, string>> {
  const replaced = await tx.invitation.findMany({
    where: { email: { in: entries.map((entry) => entry.email) }, acceptedAt: null },
    select: { id: true, email: true, companyId: true },
  });
  const companyOf = new Map(entries.map((entry) => [entry.email, entry.companyId]));
  return new Map(
    replaced.filter((row) => row.companyId === companyOf.get(row.email)).map((row) => [row.email, row.id]),
  );
}

async function dropQueuedInvitationMail(tx: Pick<DbTransaction, "outboxMessage">, emails: string[]): Promise<void> {
  await tx.outboxMessage.deleteMany({ where: { recipient: { in: emails }, kind: "invitation", status: "queued" } });
}

const PENDING_FIELDS = {
  id: true,
  email: true,
  companyId: true,
  role: true,
  language: true,
  givenName: true,
  familyName: true,
  invitedByUserId: true,
  createdAt: true,
  expiresAt: true,
} as const;

/** The invitations not yet accepted (expired ones too: they show until revoked or sent again). */
function listPendingInvitations(db: Db, where: PendingWhere = {}): Promise<PendingInvitation[]> {
  return db.invitation.findMany({
    where: { ...where, acceptedAt: null },
    orderBy: [{ companyId: "asc" }, { email: "asc" }],
    select: PENDING_FIELDS,
  });
}

/** The invitation behind a link, with its company's name and state, whether used or expired. */
function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<InvitationOfLink | null> {
  return db.invitation.findUnique({
    where: { tokenHash },
    select: {
      ...PENDING_FIELDS,
      acceptedAt: true,
      company: { select: { name: true, active: true } },
    },
  });
}

/** Deletes a pending invitation (its link stops working); false when there was none. */
async function deletePendingInvitation(
  db: Db,
  where: { email: string; companyId?: string },
  event: AuditEvent,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.invitation.deleteMany({ where: { ...where, acceptedAt: null } });
    if (count > 0) {
      await dropQueuedInvitationMail(tx, [where.email]);
      await recordAuditEvent(tx, event);
    }
    return count > 0;
  });
}

/** The user an accepted invitation makes: verified by the mailed link, in the invitation's language. */
export const joinedUser = (joining: Joining, now: Date) => ({
  email: joining.email,
  companyId: joining.companyId,
  role: joining.role,
  givenName: joining.givenName,
  familyName: joining.familyName,
  passwordHash: joining.passwordHash,
  preferredLanguage: joining.language,
  emailVerified: true,
  createdAt: now,
});

interface Joining {
  invitationId: string;
  email: string;
  companyId: string;
  role: string;
  language: string;
  givenName: string;
  familyName: string;
  passwordHash: string;
}

/**
 * Marks the invitation used and creates its user, signed-in-ready with a verified email. "used" when a concurrent
 * acceptance won; "already_user" when the address became a user's meanwhile.
 */
async function acceptInvitation(
  db: Db,
  joining: Joining,
  now: Date,
): Promise<{ userId: string } | "used" | "already_user"> {
  return acceptInTransaction(db, joining, now).catch((error: unknown) => {
    if (isUniqueViolation(error)) return "already_user" as const;
    throw error;
  });
}

function acceptInTransaction(
  db: Db,
  joining: Joining,
  now: Date,
): Promise<{ userId: string } | "used" | "already_user"> {
  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: joining.email }, select: { id: true } }))
      return "already_user" as const;
    const { count } = await tx.invitation.updateMany({
      where: { id: joining.invitationId, acceptedAt: null },
      data: { acceptedAt: now },
    });
    if (count === 0) return "used" as const;
    const user = await tx.user.create({ data: joinedUser(joining, now), select: { id: true } });
    await recordAuditEvent(tx, {
      type: "user.joined",
      userId: user.id,
      details: {
        subjectUserId: user.id,
        username: joining.email,
        companyId: joining.companyId,
        invitationId: joining.invitationId,
      },
    });
    return { userId: user.id };
  });
}

export interface InvitationStore {
  /**
   * Stores the invitations chunk by chunk with their mail and audit events, in one transaction, replacing earlier
   * ones for the same address in the same company; nothing is written when any address conflicts.
   */
  save(
    chunks: AsyncIterable<InvitationToStore[]>,
    now: Date,
  ): Promise<{ stored: number } | { conflicts: InvitationConflict[] }>;
  listPending(where?: PendingWhere): Promise<PendingInvitation[]>;
  /** The invitation behind a link, whether used or expired. */
  findByTokenHash(tokenHash: string): Promise<InvitationOfLink | null>;
  /** Deletes a pending invitation (its link stops working); false when there was none. */
  deletePending(where: { email: string; companyId?: string }, event: AuditEvent): Promise<boolean>;
  /** Marks the invitation used and creates its user; "used" when a concurrent acceptance won. */
  accept(joining: Joining, now: Date): Promise<{ userId: string } | "used" | "already_user">;
}

export const prismaInvitationStore = (db: Db): InvitationStore =>
  bindDb(db, {
    save: storeInvitations,
    listPending: listPendingInvitations,
    findByTokenHash: findInvitationByTokenHash,
    deletePending: deletePendingInvitation,
    accept: acceptInvitation,
  });
