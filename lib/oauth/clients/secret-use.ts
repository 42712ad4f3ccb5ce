/**
 * When each client secret was last used, for the partner portal: written at most once a minute per secret and
 * process, after the token request has its answer (the write is not awaited), so the token endpoint's path gains a
 * map lookup and nothing else.
 */
import { logger } from "@/lib/observability/logger";
import { processCache } from "@/lib/observability/process-cache";
import type { ClientStore } from "@/lib/store/client-store";

const RESOLUTION_MS = 60_000;
/** Secrets remembered at most; beyond that the map starts over (a few extra writes, no growth). */
const MAX_REMEMBERED = 10_000;

const lastRecorded = processCache("secret-use", () => new Map<string, number>());

export function noteSecretUse(clients: ClientStore, secretHash: string, now: Date): void {
  const last = lastRecorded.get(secretHash);
  if (last !== undefined && now.getTime() - last < RESOLUTION_MS) return;
  if (lastRecorded.size >= MAX_REMEMBERED) lastRecorded.clear();
  lastRecorded.set(secretHash, now.getTime());
  clients
    .recordSecretUse(secretHash, now)
    .catch((error: Error) => logger.warn({ reason: error.message }, "could not record a client secret's last use"));
}
