/**
 * Throttling of sign-in attempts, per account and per client address, kept in the database so that it holds across
 * processes. An attempt is reserved before its password is checked (lib/store/throttle-store.ts): once the limit
 * is taken, further attempts are refused without a check, however many arrive at once. Failures are counted for
 * unknown accounts too, so the answer never tells whether an account exists.
 */
import { LOGIN_LOCKOUT_SECONDS, MAX_FAILURES, THROTTLE_WINDOW_SECONDS } from "@/lib/config/policy";
import type { AttemptCount, ThrottleStore } from "@/lib/store/throttle-store";
import { throttledNetwork } from "@/lib/http/client-address";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import { countLockout } from "@/lib/observability/metrics";
import type { AuditDetails } from "@/lib/store/models/audit-details";

type Scope = keyof typeof MAX_FAILURES;

export type SignInReservation = { ok: true; keys: [Scope, string][] } | { ok: false; retryAfterSeconds: number };

function keysFor(email: string, address: string | undefined): [Scope, string][] {
  // The address first: an address that is throttled must not count (and so lock) accounts it does not even try.
  const keys: [Scope, string][] = address ? [["address", `address:${throttledNetwork(address)}`]] : [];
  keys.push(["account", accountThrottleKey(email)]);
  return keys;
}

const secondsUntil = (date: Date, now: Date) => Math.max(1, Math.ceil((date.getTime() - now.getTime()) / 1000));

/** Seconds until the key takes attempts again, or 0 when this reservation is within its limit. */
function waitFor(scope: Scope, count: AttemptCount, now: Date): number {
  if (count.lockedUntil && count.lockedUntil > now) return secondsUntil(count.lockedUntil, now);
  if (count.attempts > MAX_FAILURES[scope])
    return secondsUntil(new Date(count.windowStartedAt.getTime() + THROTTLE_WINDOW_SECONDS * 1000), now);
  return 0;
}

/**
 * Counts this attempt for the address, then for the account; refused (and not counted further) as soon as one of
 * them is locked or its limit is taken. A refused attempt checks no password and gives back what it reserved.
 */
export async function reserveSignInAttempt(
  throttles: ThrottleStore,
  email: string,
  address: string | undefined,
  now = new Date(),
): Promise<SignInReservation> {
  const keys = keysFor(email, address);
  for (const [index, [scope, key]] of keys.entries()) {
    const wait = waitFor(scope, await throttles.reserve(key, THROTTLE_WINDOW_SECONDS, now), now);
    if (wait > 0) {
      for (const [, reserved] of keys.slice(0, index)) await throttles.release(reserved);
      return { ok: false, retryAfterSeconds: wait };
    }
  }
  return { ok: true, keys };
}

/**
 * The attempt failed (`cause`: a password or a second factor's code): it stays counted, and a key that reached its
 * limit is locked, a lock-out counted for the metrics. Until when the account is locked when this attempt locked it
 * (for the audit event, and the signin.failed.locked webhook), else null.
 */
export async function recordFailedSignIn(
  throttles: ThrottleStore,
  reservation: Extract<SignInReservation, { ok: true }>,
  cause: "password" | "second_factor",
  now = new Date(),
): Promise<Date | null> {
  const until = new Date(now.getTime() + LOGIN_LOCKOUT_SECONDS * 1000);
  let accountLocked = false;
  for (const [scope, key] of reservation.keys)
    if (await throttles.lockWhenReached(key, MAX_FAILURES[scope], until, now)) {
      countLockout({ scope, cause });
      if (scope === "account") accountLocked = true;
    }
  return accountLocked ? until : null;
}

/** The audit details of a failure that locked the account. */
export const lockDetails = (lockedUntil: Date | null): AuditDetails =>
  lockedUntil ? { locked: true, lockedUntil: lockedUntil.toISOString() } : {};

/** The password was right: the account's count starts over, and the address does not pay for this attempt. */
export async function recordRightPassword(
  throttles: ThrottleStore,
  reservation: Extract<SignInReservation, { ok: true }>,
  options: { clearAccount: boolean },
): Promise<void> {
  for (const [scope, key] of reservation.keys) {
    if (scope === "account" && options.clearAccount) await throttles.clear(key);
    else await throttles.release(key);
  }
}
