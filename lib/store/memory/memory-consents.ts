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
    async revoke(userId, clientId, now = new Date()) {
      const consent = rows.get(keyOf(userId, clientId));
      if (!consent || consent.revokedAt) return false;
      consent.revokedAt = now;
      let refreshTokens = 0;
      for (const token of tables.refreshTokens.values())
        if (token.userId === userId && token.clientId === clientId && !token.revokedAt) {
          token.revokedAt = now;
          refreshTokens++;
        }
      let codes = 0;
      for (const [hash, code] of tables.authorizationCodes)
        if (code.userId === userId && code.clientId === clientId && !code.consumedAt) {
          tables.authorizationCodes.delete(hash);
          codes++;
        }
      let devices = 0;
      for (const request of tables.deviceAuthorizations.values())
        if (request.grant?.userId === userId && request.clientId === clientId && !request.redeemedAt) {
          Object.assign(request, { status: "denied", grant: null });
          devices++;
        }
      const details = { refreshTokens, codes, devices };
      await audit.record({ type: "consent.revoked", userId, clientId, details });
      return true;
    },
    async listCurrent(userId) {
      return [...rows.values()]
        .filter((consent) => consent.userId === userId && !consent.revokedAt)
        .sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime())
        .map(({ clientId, scopes, grantedAt, lastUsedAt }) => {
          const client = tables.clients.get(clientId)?.client;
          return {
            clientId,
            scopes: [...scopes],
            grantedAt,
            lastUsedAt,
            client: { names: client?.names ?? {}, descriptions: client?.descriptions ?? {} },
          };
        });
    },
    listScopes: async (names) => [...tables.scopes.values()].filter((scope) => !names || names.includes(scope.name)),
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
