/** Consents in memory, with the database store's rules (lib/store/consent-store.ts). */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import type { ConsentStore } from "@/lib/store/consent-store";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

const keyOf = (userId: string, clientId: string) => `${userId}\n${clientId}`;

export function memoryConsentStore(tables: MemoryTables, audit: AuditStore): ConsentStore {
  const rows = tables.consents;
  return {
    async findGrantedScopes(userId, clientId) {
      const consent = rows.get(keyOf(userId, clientId));
      return consent && !consent.revokedAt ? [...consent.scopes] : null;
    },
    findId: async (userId, clientId) => rows.get(keyOf(userId, clientId))?.id,
    async markUsed(selection, now) {
      for (const consent of rows.values())
        if (
          "id" in selection
            ? consent.id === selection.id
            : consent.userId === selection.userId && consent.clientId === selection.clientId
        )
          consent.lastUsedAt = now;
    },
    async save(userId, clientId, decide, details, now) {
      const existing = rows.get(keyOf(userId, clientId));
      const scopes = decide(existing && !existing.revokedAt ? [...existing.scopes] : []);
      rows.set(keyOf(userId, clientId), {
        id: existing?.id ?? randomUUID(),
        userId,
        clientId,
        scopes,
        grantedAt: now,
        lastUsedAt: existing?.lastUsedAt ?? null,
        revokedAt: null,
      });
      await audit.record({ type: "consent.granted", userId, clientId, details });
    },
  };
}
