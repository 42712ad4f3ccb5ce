/**
 * How often a password reset may be asked for: per client network and per address asked about (whether or not an
 * account has it, so that the answer tells nothing), counted with the sign-in throttle's atomic counters. A network
 * over its limit is told to wait; an address over its limit is not (the asker may not be its owner, who must not be
 * shown a refusal somebody else caused), its further requests are just not mailed.
 */
import { MAX_PASSWORD_RESETS, PASSWORD_RESET_WINDOW_SECONDS } from "@/lib/config/policy";
import { throttledNetwork } from "@/lib/http/client-address";
import { resetThrottleKey, type ThrottleStore } from "@/lib/store/throttle-store";

export type ResetReservation = { ok: true } | { ok: false; scope: "address" | "account"; retryAfterSeconds: number };

/** Counts the request, or says which limit refuses it and for how long. */
export async function reservePasswordReset(
  throttles: ThrottleStore,
  email: string,
  address: string | undefined,
  now = new Date(),
): Promise<ResetReservation> {
  const keys: [keyof typeof MAX_PASSWORD_RESETS, string][] = address
    ? [["address", `reset-address:${throttledNetwork(address)}`]]
    : [];
  keys.push(["account", resetThrottleKey(email)]);
  for (const [index, [scope, key]] of keys.entries()) {
    const count = await throttles.reserve(key, PASSWORD_RESET_WINDOW_SECONDS, now);
    if (count.attempts > MAX_PASSWORD_RESETS[scope]) {
      // A network over its limit must not use up the allowance of the addresses it asks about.
      for (const [, reserved] of keys.slice(0, index)) await throttles.release(reserved);
      const reopens = count.windowStartedAt.getTime() + PASSWORD_RESET_WINDOW_SECONDS * 1000;
      return { ok: false, scope, retryAfterSeconds: Math.max(1, Math.ceil((reopens - now.getTime()) / 1000)) };
    }
  }
  return { ok: true };
}
