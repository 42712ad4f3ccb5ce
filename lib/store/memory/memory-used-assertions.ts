/** Used assertions in memory, with the database store's rules (lib/store/used-assertion-store.ts). */
import { assertionKey, assertionKeptUntil, type UsedAssertionStore } from "@/lib/store/used-assertion-store";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";
import type { AuditStore } from "@/lib/store/audit-store";

export function memoryUsedAssertionStore(tables: MemoryTables, audit: AuditStore): UsedAssertionStore {
  return {
    async recordUse(assertion, now, event) {
      const key = assertionKey(assertion);
      const keptUntil = tables.usedAssertions.get(key);
      // An earlier use whose assertion has expired may be replaced: that assertion could not be replayed anyway.
      if (keptUntil && keptUntil > now) return false;
      tables.usedAssertions.set(key, assertionKeptUntil(assertion));
      if (event) await audit.record(event);
      return true;
    },
  };
}
