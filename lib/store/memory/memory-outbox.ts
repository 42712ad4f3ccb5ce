/** The mail outbox in memory, with the database store's rules (lib/store/outbox-store.ts). */
import { randomUUID } from "node:crypto";
import type { ClaimedMessage, ListedOutboxMessage, OutboxStore } from "@/lib/store/outbox-store";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";
import { countQueuedMail } from "@/lib/observability/metrics";
import type { AuditStore } from "@/lib/store/audit-store";

export type StoredOutboxMessage = ListedOutboxMessage & { claimedUntil: Date | null; claimToken: string | null };

/** Queues mail as a change's commit does (account links, second-factor resets, a message on its own), counted. */
export function queueInMemory(tables: MemoryTables, mail: NewOutboxMessage, now: Date): string {
  countQueuedMail([mail.kind]);
  const id = randomUUID();
  tables.outbox.push({
    ...mail,
    id,
    status: "queued",
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    createdAt: now,
    sentAt: null,
    claimedUntil: null,
    claimToken: null,
  });
  return id;
}

const listed = ({ claimedUntil: _until, claimToken: _token, ...message }: StoredOutboxMessage): ListedOutboxMessage =>
  copy(message);

export function memoryOutboxStore(tables: MemoryTables, audit: AuditStore): OutboxStore {
  const held = (message: ClaimedMessage) =>
    tables.outbox.find((row) => row.id === message.id && row.claimToken === message.claimToken);
  const release = { claimedUntil: null, claimToken: null };
  return {
    async claimDue({ token, limit, now, holdUntil, kinds, exceptKinds }) {
      const due = tables.outbox
        .filter((row) => row.status === "queued" && row.nextAttemptAt <= now && (!kinds || kinds.includes(row.kind)))
        .filter((row) => !exceptKinds?.includes(row.kind))
        .filter((row) => !row.claimedUntil || row.claimedUntil < now)
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
        .slice(0, limit);
      for (const row of due)
        Object.assign(row, { claimedUntil: holdUntil, claimToken: token, attempts: row.attempts + 1 });
      return due.map(({ id, kind, language, recipient, subject, sealedBody, attempts, claimToken }) =>
        copy({ id, kind, language, recipient, subject, sealedBody, attempts, claimToken }),
      );
    },
    async markSent(message, now) {
      const row = held(message);
      if (row)
        Object.assign(row, {
          status: "sent",
          sentAt: now,
          subject: message.subject,
          sealedBody: null,
          lastError: null,
          ...release,
        });
    },
    async drop(message) {
      tables.outbox = tables.outbox.filter((row) => row !== held(message));
    },
    async markUndelivered(message, { failed, lastError, nextAttemptAt, keepBody }) {
      const row = held(message);
      if (!row) return;
      Object.assign(row, { status: failed ? "failed" : "queued", lastError, nextAttemptAt, ...release });
      if (failed && !keepBody) row.sealedBody = null;
    },
    async list(limit) {
      return [...tables.outbox]
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map(listed);
    },
    async page({ status, after, limit }) {
      const newestFirst = (a: StoredOutboxMessage, b: StoredOutboxMessage) =>
        b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
      return tables.outbox
        .filter((row) => !status || row.status === status)
        .filter((row) => !after || newestFirst(row, { ...row, ...after }) > 0)
        .sort(newestFirst)
        .slice(0, limit)
        .map(listed);
    },
    async find(id) {
      const row = tables.outbox.find((stored) => stored.id === id);
      return row ? listed(row) : null;
    },
    async requeue(id, sealedBody, now, event) {
      const row = tables.outbox.find((stored) => stored.id === id);
      if (!row || row.status !== "failed" || row.sealedBody !== sealedBody) return false;
      Object.assign(row, { status: "queued", attempts: 0, nextAttemptAt: now, ...release });
      if (event) await audit.record(event);
      return true;
    },
    async count() {
      const of = (status: string) => tables.outbox.filter((row) => row.status === status).length;
      return { queued: of("queued"), sent: of("sent"), failed: of("failed") };
    },
    async oldestWaitingSince() {
      const waiting = tables.outbox.filter((row) => row.status === "queued");
      const oldest = waiting.reduce<Date | null>((at, row) => (at && at <= row.createdAt ? at : row.createdAt), null);
      return oldest && new Date(oldest);
    },
    async queue(message, now, event) {
      const id = queueInMemory(tables, message, now);
      if (event) await audit.record({ ...event, details: { ...event.details, messageId: id } });
      return id;
    },
  };
}
