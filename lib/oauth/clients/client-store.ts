/**
 * Registered clients with the hashes of their usable secrets, as the protocol endpoints need them. Cached per
 * process for a few seconds: changes made in this process (admin pages) are seen at once through forgetClient(),
 * changes made by the CLI in another process within CLIENT_CACHE_SECONDS.
 */
import { CLIENT_CACHE_SECONDS } from "@/lib/config/policy";
import { registeredClientFromRow, type RegisteredClient } from "@/lib/oauth/clients/client-record";
import type { Db } from "@/lib/db/prisma";
import { forgetCorsOrigins } from "@/lib/oauth/cors";
import { processCache } from "@/lib/cache/process-cache";

export interface ClientWithSecrets extends RegisteredClient {
  /** SHA-256 hashes of the secrets that are neither disabled nor expired at load time, with their expiry. */
  secrets: { hash: string; expiresAt: Date | null }[];
}

const cache = processCache(
  "clients",
  () => new Map<string, { loadedAt: number; client: Promise<ClientWithSecrets | null> }>(),
);

async function loadClient(db: Db, clientId: string): Promise<ClientWithSecrets | null> {
  const row = await db.client.findUnique({
    where: { id: clientId },
    include: { secrets: { where: { disabledAt: null }, select: { secretHash: true, expiresAt: true } } },
  });
  if (!row) return null;
  return {
    ...registeredClientFromRow(row),
    secrets: row.secrets.map((s) => ({ hash: s.secretHash, expiresAt: s.expiresAt })),
  };
}

export function findClient(db: Db, clientId: string, now = Date.now()): Promise<ClientWithSecrets | null> {
  const entry = cache.get(clientId);
  if (entry && now - entry.loadedAt < CLIENT_CACHE_SECONDS * 1000) return entry.client;
  const client = loadClient(db, clientId);
  cache.set(clientId, { loadedAt: now, client });
  client.catch(() => cache.delete(clientId));
  return client;
}

export function forgetClient(clientId?: string): void {
  if (clientId === undefined) cache.clear();
  else cache.delete(clientId);
  forgetCorsOrigins();
}
