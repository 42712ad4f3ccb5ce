/**
 * The attempt counters behind sign-in throttling (lib/session/login-throttle.ts) and client-authentication throttling
 * (lib/oauth/clients/client-auth-throttle.ts), in `login_throttles` under one key per account, address or client.
 * Each change is one named statement (lib/db/statements/throttles.ts), so that concurrent requests on any number of
 * processes count exactly: an attempt is reserved (counted) before the slow check it guards.
 */
export {
  clearAttempts,
  lockWhenReached,
  releaseAttempt,
  reserveAttempt,
  type AttemptCount,
} from "@/lib/db/statements/throttles";

/** The key counting reset requests for an address (lib/session/reset-throttle.ts), whether or not an account has it. */
export const resetThrottleKey = (email: string) => `reset-account:${email}`;
