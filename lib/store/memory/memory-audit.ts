/** The audit trail in memory, with the database store's filters (lib/store/audit-store.ts). */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export function memoryAuditStore(tables: MemoryTables): AuditStore {
  return {
    async record(event) {
      tables.auditEvents.push({
        id: randomUUID(),
        occurredAt: new Date(),
        type: event.type,
        userId: event.userId ?? null,
        clientId: event.clientId ?? null,
        ipAddress: event.ipAddress ?? null,
        details: JSON.stringify(event.details ?? {}),
      });
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
        .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime())
        .slice(0, take)
        .map(copy);
    },
  };
}
