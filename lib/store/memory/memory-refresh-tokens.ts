/** Refresh tokens in memory, with the database store's rules (lib/store/refresh-token-store.ts). */
import { randomUUID } from "node:crypto";
import { hashToken } from "@/lib/crypto/tokens";
import { grantOf, refreshTokenExpiry, type RefreshTokenStore } from "@/lib/store/refresh-token-store";
import type { RefreshToken, RefreshTokenGrant, RefreshTokenSelection } from "@/lib/store/models/token";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

const usable = (token: RefreshToken, now: Date) => !token.revokedAt && !token.rotatedAt && token.expiresAt > now;

function selects(token: RefreshToken, selection: RefreshTokenSelection): boolean {
  if ("familyId" in selection) return token.familyId === selection.familyId;
  if ("authorizationCodeId" in selection) return token.authorizationCodeId === selection.authorizationCodeId;
  return token.userId === selection.userId && token.clientId === selection.clientId;
}

export function memoryRefreshTokenStore(tables: MemoryTables): RefreshTokenStore {
  const rows = tables.refreshTokens;
  const insert = (value: string, grant: RefreshTokenGrant, now: Date) => {
    const hash = hashToken(value);
    if (rows.has(hash)) throw new Error("a refresh token of this value is stored already");
    const times = { createdAt: now, lastUsedAt: null, expiresAt: refreshTokenExpiry(now), rotatedAt: null };
    rows.set(hash, copy({ ...grantOf(grant), ...times, revokedAt: null, id: randomUUID() }));
  };
  return {
    async find(presented) {
      const token = rows.get(hashToken(presented));
      return token ? copy(token) : null;
    },
    async save(value, grant, now) {
      insert(value, grant, now);
    },
    async slide(presented, clientId, now) {
      const token = rows.get(hashToken(presented));
      if (!token || token.clientId !== clientId || !usable(token, now)) return undefined;
      token.expiresAt = refreshTokenExpiry(now);
      token.lastUsedAt = now;
      return copy({ ...grantOf(token), id: token.id });
    },
    async rotate(token, successor, now) {
      const stored = [...rows.values()].find((row) => row.id === token.id);
      if (!stored || !usable(stored, now)) return false;
      stored.rotatedAt = now;
      stored.lastUsedAt = now;
      insert(successor, token, now);
      return true;
    },
    async revoke(selection, now) {
      const live = [...rows.values()].filter((token) => !token.revokedAt && selects(token, selection));
      for (const token of live) token.revokedAt = now;
      return live.length;
    },
    async listUses(userId) {
      return [...rows.values()]
        .filter((token) => token.userId === userId && !token.revokedAt)
        .map(({ clientId, lastUsedAt }) => ({ clientId, lastUsedAt }));
    },
  };
}
