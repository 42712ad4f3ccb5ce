/** Invitations in memory, with the database store's rules (lib/store/invitation-store.ts). */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import { joinedUser, type InvitationStore, type InvitationToStore } from "@/lib/store/invitation-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { queueInMemory } from "@/lib/store/memory/memory-outbox";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export interface StoredInvitation {
  id: string;
  email: string;
  companyId: string;
  role: string;
  language: string;
  givenName: string | null;
  familyName: string | null;
  tokenHash: string;
  invitedByUserId: string | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
}

/** A replaced or withdrawn invitation's mail that has not left yet would carry a dead link. */
function dropQueuedInvitationMail(tables: MemoryTables, emails: string[]): void {
  tables.outbox = tables.outbox.filter(
    (mail) => !(emails.includes(mail.recipient) && mail.kind === "invitation" && mail.status === "queued"),
  );
}

const pendingView = (row: StoredInvitation) => {
  const { id, email, companyId, role, language, givenName, familyName, invitedByUserId, createdAt, expiresAt } = row;
  return copy({ id, email, companyId, role, language, givenName, familyName, invitedByUserId, createdAt, expiresAt });
};

/** The id of the pending invitation of the address in the same company, which sending it again keeps. */
const keptId = (tables: MemoryTables, email: string, companyId: string) =>
  [...tables.invitations.values()].find((row) => row.email === email && !row.acceptedAt && row.companyId === companyId)
    ?.id;

/** Stores a batch all or none: nothing is written until every chunk passed, as in the database's one transaction. */
async function saveInvitations(
  tables: MemoryTables,
  audit: AuditStore,
  chunks: AsyncIterable<InvitationToStore[]>,
  now: Date,
): ReturnType<InvitationStore["save"]> {
  const byEmail = new Map<string, StoredInvitation>();
  const entries: { mail: NewOutboxMessage; event: AuditEvent }[] = [];
  for await (const chunk of chunks) {
    for (const { invitation, mail, event } of chunk) {
      if ([...tables.users.values()].some((user) => user.email === invitation.email))
        return { conflicts: [{ email: invitation.email, reason: "already_user" }] };
      const elsewhere = [...tables.invitations.values()].find(
        (row) =>
          row.email === invitation.email &&
          !row.acceptedAt &&
          row.expiresAt > now &&
          row.companyId !== invitation.companyId,
      );
      if (elsewhere) return { conflicts: [{ email: invitation.email, reason: "invited_elsewhere" }] };
      byEmail.set(invitation.email, {
        ...copy(invitation),
        id: keptId(tables, invitation.email, invitation.companyId) ?? randomUUID(),
        givenName: invitation.givenName ?? null,
        familyName: invitation.familyName ?? null,
        invitedByUserId: invitation.invitedByUserId ?? null,
        createdAt: now,
        acceptedAt: null,
      });
      entries.push({ mail, event });
    }
  }
  const emails = [...byEmail.keys()];
  for (const [key, row] of tables.invitations) if (emails.includes(row.email)) tables.invitations.delete(key);
  dropQueuedInvitationMail(tables, emails);
  for (const row of byEmail.values()) tables.invitations.set(row.id, row);
  for (const { mail, event } of entries) {
    queueInMemory(tables, mail, now);
    await audit.record(event);
  }
  return { stored: entries.length };
}

export function memoryInvitationStore(tables: MemoryTables, audit: AuditStore): InvitationStore {
  const invitations = () => [...tables.invitations.values()];
  return {
    save: (chunks, now) => saveInvitations(tables, audit, chunks, now),
    listPending: async (where = {}) =>
      invitations()
        .filter(
          (row) =>
            !row.acceptedAt &&
            (!where.companyId || row.companyId === where.companyId) &&
            (!where.email || row.email === where.email) &&
            (!where.id || row.id === where.id),
        )
        .sort((a, b) =>
          a.companyId === b.companyId ? (a.email < b.email ? -1 : 1) : a.companyId < b.companyId ? -1 : 1,
        )
        .map(pendingView),
    async findByTokenHash(tokenHash) {
      const row = invitations().find((candidate) => candidate.tokenHash === tokenHash);
      const company = row && tables.companies.get(row.companyId);
      return row && company
        ? {
            ...pendingView(row),
            acceptedAt: row.acceptedAt,
            company: { name: company.name, active: company.active },
          }
        : null;
    },
    async deletePending(where, event) {
      const matching = invitations().filter(
        (row) =>
          row.email === where.email && !row.acceptedAt && (!where.companyId || row.companyId === where.companyId),
      );
      for (const row of matching) tables.invitations.delete(row.id);
      if (matching.length === 0) return false;
      dropQueuedInvitationMail(tables, [where.email]);
      await audit.record(event);
      return true;
    },
    async accept(joining, now) {
      if ([...tables.users.values()].some((user) => user.email === joining.email)) return "already_user";
      const invitation = tables.invitations.get(joining.invitationId);
      if (!invitation || invitation.acceptedAt) return "used";
      invitation.acceptedAt = now;
      const id = randomUUID();
      tables.users.set(id, {
        ...joinedUser(joining, now),
        id,
        active: true,
        suspendedWithCompany: false,
        deactivatedByOperator: false,
        signedOutAt: null,
        lastSignInAt: null,
        createdAt: now,
        updatedAt: now,
      });
      await audit.record({
        type: "user.joined",
        userId: id,
        details: {
          subjectUserId: id,
          username: joining.email,
          companyId: joining.companyId,
          invitationId: joining.invitationId,
        },
      });
      return { userId: id };
    },
  };
}
