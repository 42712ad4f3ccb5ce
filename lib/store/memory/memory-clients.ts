/** Registered clients in memory, with the database store's rules (lib/store/client-store.ts). */
import type { ClientStore } from "@/lib/store/client-store";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

/** A client as the memory tables hold it: a partner's may wait for approval or be rejected. */
export interface MemoryClient {
  client: ClientWithSecrets;
  status: "approved" | "pending" | "rejected";
  /** When each secret (by hash) was last used. */
  secretUses: Map<string, Date>;
}

/** Registers a client in the tables, as the operator's registry would. */
export function addMemoryClient(
  tables: MemoryTables,
  client: ClientWithSecrets,
  status: MemoryClient["status"] = "approved",
) {
  tables.clients.set(client.id, { client: copy(client), status, secretUses: new Map() });
}

export function memoryClientStore(tables: MemoryTables): ClientStore {
  const approved = () => [...tables.clients.values()].filter((entry) => entry.status === "approved");
  return {
    async find(clientId) {
      const entry = tables.clients.get(clientId);
      return entry?.status === "approved" ? copy(entry.client) : null;
    },
    async corsOrigins() {
      return new Set(
        approved()
          .filter(({ client }) => client.kind === "browser")
          .flatMap(({ client }) => client.corsOrigins),
      );
    },
    async logoutUris(clientIds) {
      return approved()
        .map(({ client }) => client)
        .filter((client) => clientIds.includes(client.id))
        .filter((client) => client.frontchannelLogoutUri !== null || client.backchannelLogoutUri !== null)
        .map(({ id, frontchannelLogoutUri, backchannelLogoutUri, idTokenSignedResponseAlg }) => ({
          id,
          frontchannelLogoutUri,
          backchannelLogoutUri,
          idTokenSignedResponseAlg,
        }));
    },
    async recordSecretUse(secretHash, now) {
      for (const entry of tables.clients.values()) {
        if (!entry.client.secrets.some((secret) => secret.hash === secretHash)) continue;
        const last = entry.secretUses.get(secretHash);
        if (!last || last.getTime() < now.getTime() - 60_000) entry.secretUses.set(secretHash, now);
      }
    },
  };
}
