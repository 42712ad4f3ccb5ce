/** Attempt counters in memory, with the database statements' rules (lib/db/statements/throttles.ts). */
import type { ThrottleStore } from "@/lib/store/throttle-store";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

export function memoryThrottleStore(tables: MemoryTables): ThrottleStore {
  const rows = tables.throttles;
  return {
    async reserve(key, windowSeconds, now) {
      const windowOpenSince = new Date(now.getTime() - windowSeconds * 1000);
      const row = rows.get(key);
      const counting = row && (row.windowStartedAt > windowOpenSince || (row.lockedUntil && row.lockedUntil > now));
      const next = counting
        ? { ...row, attempts: row.attempts + 1 }
        : { attempts: 1, windowStartedAt: now, lockedUntil: row?.lockedUntil ?? null };
      rows.set(key, next);
      return { ...next };
    },
    async lockWhenReached(key, limit, until, now) {
      const row = rows.get(key);
      if (!row || row.attempts < limit || (row.lockedUntil && row.lockedUntil > now)) return false;
      row.lockedUntil = until;
      return true;
    },
    async release(key) {
      const row = rows.get(key);
      if (row && row.attempts > 0) row.attempts -= 1;
    },
    async clear(key) {
      rows.delete(key);
    },
    async count(key, windowSeconds, now) {
      const row = rows.get(key);
      return row && row.windowStartedAt.getTime() > now.getTime() - windowSeconds * 1000 ? row.attempts : 0;
    },
  };
}
