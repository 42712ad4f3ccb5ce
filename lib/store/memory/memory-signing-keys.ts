/** Signing keys in memory, with the database store's rules (lib/store/signing-key-store.ts), uncached. */
import { keySetOf, retirement, type SigningKeyStore } from "@/lib/store/signing-key-store";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";
import type { AuditStore } from "@/lib/store/audit-store";

export function memorySigningKeyStore(tables: MemoryTables, audit: AuditStore): SigningKeyStore {
  const keys = tables.signingKeys;
  const activeOf = (algorithm: string) => keys.filter((key) => key.algorithm === algorithm && !key.supersededAt);
  const newestFirst = () =>
    [...keys].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  return {
    async keySet(secretKey, now = new Date()) {
      return keySetOf(
        newestFirst().filter((key) => !key.retiredAt || key.retiredAt > now),
        secretKey,
      );
    },
    hasActive: async (alg) => activeOf(alg).length > 0,
    async save(key, now) {
      keys.push({ ...key, createdAt: now, supersededAt: null, retiredAt: null });
      const [, ...others] = newestFirst().filter(
        (stored) => stored.algorithm === key.algorithm && !stored.supersededAt,
      );
      for (const other of others) Object.assign(other, retirement(now));
    },
    async rotateIn(key, now, by) {
      const previous = activeOf(key.algorithm);
      for (const old of previous) Object.assign(old, retirement(now));
      keys.push({ ...key, createdAt: now, supersededAt: null, retiredAt: null });
      const superseded = previous.map((old) => old.id);
      await audit.record({
        type: "signing_key.rotated",
        userId: by,
        details: { algorithm: key.algorithm, kid: key.id, superseded },
      });
      return superseded;
    },
    async retire(kid, now, by) {
      const key = keys.find((stored) => stored.id === kid);
      if (!key) return "not_found";
      if (!key.supersededAt) return "active";
      if (!key.retiredAt || key.retiredAt <= now) return "already_retired";
      key.retiredAt = now;
      await audit.record({ type: "signing_key.retired", userId: by, details: { algorithm: key.algorithm, kid } });
      return "retired";
    },
    async list() {
      return [...keys]
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map(({ id, algorithm, createdAt, supersededAt, retiredAt }) => ({
          id,
          algorithm,
          createdAt,
          supersededAt,
          retiredAt,
        }));
    },
  };
}
