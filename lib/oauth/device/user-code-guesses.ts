/**
 * Limits on entering user codes at /device (RFC 8628 §5.1): wrong codes are counted per client address, per wider
 * network, per sign-in session, per account and across everyone, in the attempt counters of the sign-in throttle. A guess is reserved (counted) under
 * every key before its code is looked up, so that however many arrive at once, no more are looked up than the limits
 * allow; a code that exists gives its reservation back. A key whose wrong codes reach its limit is locked for a while.
 */
import { USER_CODE_GUESS_LIMITS, USER_CODE_GUESS_WINDOW_SECONDS, USER_CODE_LOCKOUT_SECONDS } from "@/lib/config/policy";
import { throttledNetwork, wideNetwork } from "@/lib/http/client-address";
import { countLockout } from "@/lib/observability/metrics";
import type { AttemptCount, ThrottleStore } from "@/lib/store/throttle-store";

type Scope = keyof typeof USER_CODE_GUESS_LIMITS;

export type GuessReservation = { ok: true; keys: [Scope, string][] } | { ok: false; retryAfterSeconds: number };

const secondsUntil = (date: Date, now: Date) => Math.max(1, Math.ceil((date.getTime() - now.getTime()) / 1000));

/** Seconds until the key takes guesses again, or 0 when this guess is within its limit. */
function waitFor(scope: Scope, count: AttemptCount, now: Date): number {
  if (count.lockedUntil && count.lockedUntil > now) return secondsUntil(count.lockedUntil, now);
  if (count.attempts > USER_CODE_GUESS_LIMITS[scope])
    return secondsUntil(new Date(count.windowStartedAt.getTime() + USER_CODE_GUESS_WINDOW_SECONDS * 1000), now);
  return 0;
}

/**
 * Counts this guess for the network, the session, then everyone; refused (and given back) as soon as one key is locked
 * or full. Everyone comes last: a network or session that is throttled must not use up the limit of all.
 */
export async function reserveUserCodeGuess(
  throttles: ThrottleStore,
  who: { sessionId: string; userId: string },
  address: string | undefined,
  now = new Date(),
): Promise<GuessReservation> {
  const known = address ?? "0.0.0.0";
  // Sessions and /64s come cheap: the account and the /48 bound what one person or one site can try.
  const keys: [Scope, string][] = [
    ["address", `device-guess-address:${throttledNetwork(known)}`],
    ["network", `device-guess-network:${wideNetwork(known)}`],
    ["session", `device-guess-session:${who.sessionId}`],
    ["account", `device-guess-account:${who.userId}`],
    ["everyone", "device-guess-everyone"],
  ];
  for (const [index, [scope, key]] of keys.entries()) {
    const wait = waitFor(scope, await throttles.reserve(key, USER_CODE_GUESS_WINDOW_SECONDS, now), now);
    if (wait > 0) {
      for (const [, reserved] of keys.slice(0, index + 1)) await throttles.release(reserved);
      return { ok: false, retryAfterSeconds: wait };
    }
  }
  return { ok: true, keys };
}

/** The code exists: the guess does not count. */
export async function releaseUserCodeGuess(
  throttles: ThrottleStore,
  reservation: Extract<GuessReservation, { ok: true }>,
): Promise<void> {
  for (const [, key] of reservation.keys) await throttles.release(key);
}

/** The code was wrong: it stays counted, and a key that reached its limit is locked (each lock-out counted once). */
export async function recordWrongUserCode(
  throttles: ThrottleStore,
  reservation: Extract<GuessReservation, { ok: true }>,
  now = new Date(),
): Promise<void> {
  const until = new Date(now.getTime() + USER_CODE_LOCKOUT_SECONDS * 1000);
  for (const [scope, key] of reservation.keys)
    if (await throttles.lockWhenReached(key, USER_CODE_GUESS_LIMITS[scope], until, now))
      countLockout({ scope, cause: "user_code" });
}
