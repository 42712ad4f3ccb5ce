/**
 * The attempt counters behind sign-in throttling (lib/session/login-throttle.ts), client-authentication throttling
 * (lib/oauth/clients/client-auth-throttle.ts) and request rates, in `login_throttles` under one key per account,
 * address or client. Each change is one named statement (lib/db/statements/throttles.ts), so that concurrent requests
 * on any number of processes count exactly: an attempt is reserved (counted) before the slow check it guards.
 */
import type { Db } from "@/lib/db/prisma";
import {
  attemptsInWindow,
  clearAttempts,
  lockWhenReached,
  releaseAttempt,
  reserveAttempt,
  type AttemptCount,
} from "@/lib/db/statements/throttles";

export type { AttemptCount };

export interface ThrottleStore {
  /** Counts one attempt under `key` in a window of `windowSeconds`; returns the count and any lock. */
  reserve(key: string, windowSeconds: number, now: Date): Promise<AttemptCount>;
  /**
   * Locks `key` until `until` when its attempts have reached `limit` and no lock is in force at `now`; true when this
   * call started the lock (so that each lock-out is counted once, however many failures race to it).
   */
  lockWhenReached(key: string, limit: number, until: Date, now: Date): Promise<boolean>;
  /** Takes a reserved attempt back (it succeeded, so it does not count against the key). */
  release(key: string): Promise<void>;
  /** Forgets every attempt under `key`. */
  clear(key: string): Promise<void>;
  /** The attempts under `key` in its window of `windowSeconds` as of `now` (0 once the window is over), counting none. */
  count(key: string, windowSeconds: number, now: Date): Promise<number>;
}

/** The key counting reset requests for an address (lib/account/reset-throttle.ts), whether or not an account has it. */
export const resetThrottleKey = (email: string) => `reset-account:${email}`;

/** The sign-in throttle's key of an account (lib/session/login-throttle.ts). */
export const accountThrottleKey = (email: string) => `account:${email}`;

export function prismaThrottleStore(db: Db): ThrottleStore {
  return {
    reserve: (key, windowSeconds, now) => reserveAttempt(db, key, windowSeconds, now),
    lockWhenReached: (key, limit, until, now) => lockWhenReached(db, key, limit, until, now),
    release: (key) => releaseAttempt(db, key),
    clear: (key) => clearAttempts(db, key),
    count: (key, windowSeconds, now) => attemptsInWindow(db, key, windowSeconds, now),
  };
}
