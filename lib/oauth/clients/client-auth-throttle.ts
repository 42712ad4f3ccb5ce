/**
 * Throttling of failed client authentications at the token, revocation and introspection endpoints, per client id
 * and caller address: after CLIENT_AUTH_LIMIT failures in 15 minutes that pair is refused for 15 minutes, even with
 * the right secret. Keyed on the address too, so that nobody can lock a client out for everyone by sending bad
 * secrets in its name. Failures are counted in the database (shared by all processes); the check before each
 * authentication reads only this process's copy of the locks, which every failure refreshes, so the token
 * endpoint's hot path pays no database round trip for it.
 */
import {
  CLIENT_AUTH_LIMIT,
  CLIENT_AUTH_LOCKOUT_SECONDS,
  CLIENT_AUTH_WINDOW_SECONDS,
  MAX_CLIENT_AUTH_LOCKS,
} from "@/lib/config/policy";
import { processCache } from "@/lib/observability/process-cache";
import { countLockout } from "@/lib/observability/metrics";
import { throttledNetwork } from "@/lib/http/client-address";
import type { ThrottleStore } from "@/lib/store/throttle-store";

const locks = processCache("clientAuthLocks", () => new Map<string, number>());

const keyOf = (clientId: string, address: string) => `client:${clientId}@${throttledNetwork(address)}`;

export function isClientAuthLocked(clientId: string, address: string | undefined, now = Date.now()): boolean {
  if (!address) return false;
  const until = locks.get(keyOf(clientId, address));
  return until !== undefined && until > now;
}

/** Counts a failure; once the limit is reached, the pair is locked here and for every process that next fails it. */
export async function recordClientAuthFailure(
  throttles: ThrottleStore,
  clientId: string,
  address: string | undefined,
  now = new Date(),
): Promise<void> {
  if (!address) return;
  const key = keyOf(clientId, address);
  const count = await throttles.reserve(key, CLIENT_AUTH_WINDOW_SECONDS, now);
  let lockedUntil = count.lockedUntil && count.lockedUntil > now ? count.lockedUntil : null;
  if (!lockedUntil && count.attempts >= CLIENT_AUTH_LIMIT) {
    lockedUntil = new Date(now.getTime() + CLIENT_AUTH_LOCKOUT_SECONDS * 1000);
    if (await throttles.lockWhenReached(key, CLIENT_AUTH_LIMIT, lockedUntil, now))
      countLockout({ scope: "client", cause: "client_authentication" });
  }
  if (!lockedUntil) return;
  if (locks.size >= MAX_CLIENT_AUTH_LOCKS)
    for (const [stale, until] of locks) if (until <= now.getTime()) locks.delete(stale);
  locks.set(key, lockedUntil.getTime());
}
