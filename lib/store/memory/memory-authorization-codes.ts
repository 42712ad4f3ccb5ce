/** Authorization codes in memory, with the database store's rules (lib/store/authorization-code-store.ts). */
import { randomUUID } from "node:crypto";
import { hashToken } from "@/lib/crypto/tokens";
import { codeExpiry, type AuthorizationCodeStore } from "@/lib/store/authorization-code-store";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export function memoryAuthorizationCodeStore(tables: MemoryTables): AuthorizationCodeStore {
  const rows = tables.authorizationCodes;
  return {
    async save(value, grant, now) {
      const hash = hashToken(value);
      if (rows.has(hash)) throw new Error("a code of this value is stored already");
      rows.set(
        hash,
        copy({ ...grant, id: randomUUID(), createdAt: now, expiresAt: codeExpiry(now), consumedAt: null }),
      );
    },
    async consume(presented, clientId, now) {
      const code = rows.get(hashToken(presented));
      if (!code || code.clientId !== clientId || code.consumedAt || code.expiresAt <= now) return undefined;
      code.consumedAt = now;
      const { createdAt: _created, expiresAt: _expires, consumedAt: _consumed, ...consumed } = copy(code);
      return consumed;
    },
    async find(presented) {
      const code = rows.get(hashToken(presented));
      return code ? copy(code) : null;
    },
  };
}
