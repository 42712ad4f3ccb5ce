/** Pushed requests and consent prompts in memory, with the database store's rules (authorization-request-store.ts). */
import { INTERACTION_LIFETIME_SECONDS, PUSHED_REQUEST_LIFETIME_SECONDS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { AuthorizationRequestStore } from "@/lib/store/authorization-request-store";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

const after = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

export function memoryAuthorizationRequestStore(tables: MemoryTables): AuthorizationRequestStore {
  const { interactions, pushedRequests } = tables;
  const open = (id: string, sessionId: string, now: Date) => {
    const interaction = interactions.get(hashToken(id));
    return interaction && interaction.sessionId === sessionId && interaction.expiresAt > now ? interaction : undefined;
  };
  return {
    async openInteraction(sessionId, clientId, parameters, now) {
      const id = generateOpaqueToken();
      interactions.set(hashToken(id), {
        sessionId,
        clientId,
        parameters: [...parameters],
        expiresAt: after(now, INTERACTION_LIFETIME_SECONDS),
      });
      return id;
    },
    async findInteraction(id, sessionId, now) {
      const interaction = open(id, sessionId, now);
      return interaction && { parameters: new URLSearchParams(interaction.parameters) };
    },
    async takeInteraction(id, sessionId, now) {
      const interaction = open(id, sessionId, now);
      if (!interaction) return undefined;
      interactions.delete(hashToken(id));
      return { parameters: new URLSearchParams(interaction.parameters) };
    },
    async push(clientId, parameters, now) {
      const id = generateOpaqueToken();
      pushedRequests.set(hashToken(id), {
        clientId,
        parameters: [...parameters],
        expiresAt: after(now, PUSHED_REQUEST_LIFETIME_SECONDS),
        startedAt: null,
        usedAt: null,
      });
      return id;
    },
    countWaiting: async (clientId, now) =>
      [...pushedRequests.values()].filter((row) => row.clientId === clientId && !row.startedAt && row.expiresAt > now)
        .length,
    async startPushed(id, clientId, now) {
      const row = pushedRequests.get(hashToken(id));
      if (!row || row.clientId !== clientId) return "unknown";
      if (row.usedAt) return "used";
      if (row.expiresAt <= now) return "expired";
      if (!row.startedAt) Object.assign(row, { startedAt: now, expiresAt: after(now, INTERACTION_LIFETIME_SECONDS) });
      return { parameters: new URLSearchParams(row.parameters), startedAt: row.startedAt! };
    },
    async usePushed(id, now) {
      const row = pushedRequests.get(hashToken(id));
      if (!row || row.usedAt || row.expiresAt <= now) return false;
      row.usedAt = now;
      return true;
    },
  };
}
