/** The audit trail in memory, with the database store's columns, filters, keyset order and purge (audit-store.ts). */
import { randomUUID } from "node:crypto";
import { auditColumns, signInIncrements, type AuditStore } from "@/lib/store/audit-store";
import type { AuditEventFilter, AuditPosition, RecordedAuditEvent } from "@/lib/store/models/audit-event";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";
import { queueWebhooksInMemory } from "@/lib/store/memory/memory-webhooks";
import { memoryActivityStore } from "@/lib/store/memory/memory-activity";

/** Negative when `a` comes before `b` in time (then by id), as the database orders (occurred_at, id). */
const compare = (a: AuditPosition, b: AuditPosition) =>
  a.occurredAt.getTime() - b.occurredAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const matches = ({ actor, companyId, kind, from, to }: AuditEventFilter) =>
  function (event: RecordedAuditEvent): boolean {
    return (
      (actor === undefined || [event.userId, event.byClientId, event.clientId].includes(actor)) &&
      (companyId === undefined || event.companyId === companyId) &&
      (kind === undefined || (kind.endsWith(".") ? event.type.startsWith(kind) : event.type === kind)) &&
      (from === undefined || event.occurredAt >= from) &&
      (to === undefined || event.occurredAt < to)
    );
  };

export function memoryAuditStore(tables: MemoryTables): AuditStore {
  /** The events the filter selects that are older than `olderThan` (all without it), newest first. */
  const newestFirst = (filter: AuditEventFilter, olderThan?: AuditPosition) =>
    tables.auditEvents
      .filter((event) => matches(filter)(event) && (!olderThan || compare(event, olderThan) < 0))
      .sort((a, b) => compare(b, a));
  return {
    async record(event) {
      tables.auditEvents.push({ id: randomUUID(), occurredAt: new Date(), ...auditColumns(event) });
      queueWebhooksInMemory(tables, event);
      const companyOfUser = async (id: string) => tables.users.get(id)?.companyId;
      await memoryActivityStore(tables).add(await signInIncrements(event, companyOfUser));
    },
    async list({ type, clientId, userId, from, to }, take) {
      return tables.auditEvents
        .filter(
          (event) =>
            (type === undefined || event.type === type) &&
            (clientId === undefined || event.clientId === clientId) &&
            (userId === undefined || event.userId === userId) &&
            (from === undefined || event.occurredAt >= from) &&
            (to === undefined || event.occurredAt <= to),
        )
        .sort((a, b) => compare(b, a))
        .slice(0, take)
        .map(copy);
    },
    async page(filter, { take, olderThan, newerThan }) {
      if (newerThan)
        return tables.auditEvents
          .filter((event) => matches(filter)(event) && compare(event, newerThan) > 0)
          .sort(compare)
          .slice(0, take)
          .reverse()
          .map(copy);
      return newestFirst(filter, olderThan).slice(0, take).map(copy);
    },
    async exportSlice(filter, { take, olderThan }) {
      const found = newestFirst(filter, olderThan);
      const slice = found.slice(0, take).map(copy);
      async function* events() {
        yield* slice;
      }
      const last = slice[slice.length - 1];
      return { events: events(), next: found.length > take ? { occurredAt: last.occurredAt, id: last.id } : null };
    },
    async purgeBefore(before, batch) {
      const old = new Set(
        tables.auditEvents
          .filter((event) => event.occurredAt < before)
          .sort(compare)
          .slice(0, batch),
      );
      let kept = 0;
      for (const event of tables.auditEvents) if (!old.has(event)) tables.auditEvents[kept++] = event;
      tables.auditEvents.length = kept;
      return old.size;
    },
  };
}
