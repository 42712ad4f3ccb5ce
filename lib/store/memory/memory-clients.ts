/** Registered clients in memory, with the database store's rules (lib/store/client-store.ts). */
import { randomUUID } from "node:crypto";
import type { ClientStore } from "@/lib/store/client-store";
import type { ClientWithSecrets, PartnerApplication, RegisteredClient } from "@/lib/store/models/client";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";
import { sandboxView } from "@/lib/store/models/sandbox-client";

/** A client's secret as the memory tables hold it: only its hash. */
interface MemoryClientSecret {
  id: string;
  hash: string;
  description: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  disabledAt: Date | null;
  lastUsedAt: Date | null;
  expiryNoticeSentAt: Date | null;
}

/** A client as the memory tables hold it: a vendor's may wait for approval or be rejected. */
export interface MemoryClient {
  client: RegisteredClient;
  status: "approved" | "pending" | "rejected";
  secrets: MemoryClientSecret[];
  ownerCompanyId: string | null;
  pendingMetadata: Record<string, unknown> | null;
  reviewNote: string | null;
  registrationTokenHash: string | null;
}

/** A secret stored by its hash, as the registry stores one. */
export const memorySecret = (hash: string, details: { description?: string; expiresAt?: Date | null } = {}) => ({
  id: randomUUID(),
  hash,
  description: details.description ?? null,
  createdAt: new Date(),
  expiresAt: details.expiresAt ?? null,
  disabledAt: null,
  lastUsedAt: null,
  expiryNoticeSentAt: null,
});

/** Registers an approved client (or a pending one) in the tables, as the registries would. */
export function addMemoryClient(
  tables: MemoryTables,
  { secrets, ownerCompanyId, ...client }: ClientWithSecrets,
  status: MemoryClient["status"] = "approved",
) {
  tables.clients.set(client.id, {
    client: copy(client),
    status,
    secrets: secrets.map((secret) => memorySecret(secret.hash, { expiresAt: secret.expiresAt })),
    ownerCompanyId,
    pendingMetadata: null,
    reviewNote: null,
    registrationTokenHash: null,
  });
}

/** The client as a vendor and the operator see it, with where it stands. */
export const applicationOf = (entry: MemoryClient): PartnerApplication =>
  copy({
    ...entry.client,
    status: entry.status,
    ownerCompanyId: entry.ownerCompanyId,
    pendingMetadata: entry.pendingMetadata,
    reviewNote: entry.reviewNote,
  });

/** Marks a change: `updatedAt` moves on, also within the same millisecond, as an operator's decision compares it. */
export function touch(entry: MemoryClient): void {
  const previous = entry.client.updatedAt.getTime();
  entry.client.updatedAt = new Date(Math.max(Date.now(), previous + 1));
}

/** A pending application is seen as its sandbox while its vendor is active and allows that. */
function inSandbox(tables: MemoryTables, entry: MemoryClient): boolean {
  if (entry.status !== "pending" || entry.ownerCompanyId === null) return false;
  const owner = tables.companies.get(entry.ownerCompanyId);
  return !!owner?.active && owner.kind === "software_vendor" && !tables.partnerSandboxOff.has(owner.id);
}

export function memoryClientStore(tables: MemoryTables): ClientStore {
  const approved = () => [...tables.clients.values()].filter((entry) => entry.status === "approved");
  return {
    async find(clientId) {
      const entry = tables.clients.get(clientId);
      if (!entry || (entry.status !== "approved" && !inSandbox(tables, entry))) return null;
      // Expired secrets come along with their expiry, as from the database; the caller refuses them.
      const kept = entry.secrets.filter((secret) => !secret.disabledAt);
      const secrets = kept.map(({ hash, expiresAt }) => ({ hash, expiresAt }));
      const client = copy({ ...entry.client, ownerCompanyId: entry.ownerCompanyId, secrets });
      return entry.status === "approved" ? client : sandboxView(client);
    },
    async corsOrigins() {
      return new Set(
        [...tables.clients.values()]
          .filter((entry) => entry.status === "approved" || inSandbox(tables, entry))
          .filter(({ client }) => client.kind === "browser")
          .flatMap(({ client }) => client.corsOrigins),
      );
    },
    async logoutUris(clientIds) {
      return approved()
        .filter(({ client }) => clientIds.includes(client.id))
        .filter(({ client }) => client.frontchannelLogoutUri !== null || client.backchannelLogoutUri !== null)
        .map(({ client, ownerCompanyId }) => ({
          id: client.id,
          frontchannelLogoutUri: client.frontchannelLogoutUri,
          backchannelLogoutUri: client.backchannelLogoutUri,
          idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
          ownerCompanyId,
        }));
    },
    async recordSecretUse(secretHash, now) {
      for (const entry of tables.clients.values())
        for (const secret of entry.secrets)
          if (
            secret.hash === secretHash &&
            (!secret.lastUsedAt || secret.lastUsedAt.getTime() < now.getTime() - 60_000)
          )
            secret.lastUsedAt = now;
    },
  };
}
