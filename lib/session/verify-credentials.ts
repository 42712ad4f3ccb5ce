/**
 * Checks a user name and password, for the login form and the catalog services' SilentLogin: an attempt is reserved
 * under the throttle first, then the password is checked (a refusal costs the same whether or not the account exists,
 * lib/session/refusal-cost.ts), then whether the user is active. Failures are counted (for the throttle and the
 * metrics: a password sign-in's refusals are all decided here, its successes by the callers) and audited. A user name
 * longer than any email address can be is refused before anything is written. A wrong password also counts towards
 * the pressure that makes the sign-in forms ask for a proof of work (lib/proof-of-work/pressure.ts). A right password
 * stored with an older algorithm or cost is hashed anew (lib/session/password-rehash.ts).
 */
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { currentHashAlgorithm, hashAlgorithmOf, verifyPassword } from "@/lib/crypto/password";
import { hashForUnknownAccounts, matchRefusalCost } from "@/lib/session/refusal-cost";
import type { User } from "@/lib/store/models/user";
import type { ServiceContext } from "@/lib/service-context";
import {
  lockDetails,
  recordFailedSignIn,
  recordRightPassword,
  reserveSignInAttempt,
} from "@/lib/session/login-throttle";
import { countSignIn } from "@/lib/observability/metrics";
import { rehashOutdatedPassword } from "@/lib/session/password-rehash";
import { recordPressure } from "@/lib/proof-of-work/pressure";

export type CredentialCheck =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid_credentials" | "account_disabled" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

export async function verifyCredentials(
  { stores, config }: ServiceContext,
  username: string,
  password: string,
  ipAddress: string | undefined,
): Promise<CredentialCheck> {
  const email = username.trim().toLowerCase();
  if (email.length > MAX_USERNAME_LENGTH) {
    countSignIn("password", "unknown_user");
    return { ok: false, reason: "invalid_credentials" };
  }
  const reservation = await reserveSignInAttempt(stores.throttles, email, ipAddress);
  if (!reservation.ok) {
    countSignIn("password", "locked");
    return { ok: false, reason: "throttled", retryAfterSeconds: reservation.retryAfterSeconds };
  }
  const user = await stores.users.findByEmail(email);
  const stored = user?.passwordHash ?? (await hashForUnknownAccounts());
  const valid = await verifyPassword(password, stored);
  if (!user || !valid) {
    await matchRefusalCost(stores.users, password, hashAlgorithmOf(stored) ?? currentHashAlgorithm());
    countSignIn("password", user ? "bad_password" : "unknown_user");
    const lockedUntil = await recordFailedSignIn(stores.throttles, reservation, "password");
    await recordPressure(stores.throttles, config.proofOfWork, { address: ipAddress, account: email });
    await stores.audit.record({
      type: "sign_in.failed",
      userId: user?.id,
      companyId: user?.companyId,
      ipAddress,
      details: { username: email, reason: "invalid_credentials", ...lockDetails(user ? lockedUntil : null) },
    });
    return { ok: false, reason: "invalid_credentials" };
  }
  const rehash = rehashOutdatedPassword(stores.users, user, password);
  // With a second factor, the account's count of failures (wrong codes among them) is cleared only by that factor:
  // a known password must not reset the count of guessed codes.
  const factors = await stores.secondFactors.count(user.id);
  await recordRightPassword(stores.throttles, reservation, {
    clearAccount: user.active && factors.passkeys === 0 && !factors.totp,
  });
  await rehash;
  if (!user.active) {
    countSignIn("password", "account_disabled");
    await stores.audit.record({
      type: "sign_in.failed",
      userId: user.id,
      companyId: user.companyId,
      ipAddress,
      details: { reason: "account_disabled" },
    });
    return { ok: false, reason: "account_disabled" };
  }
  return { ok: true, user };
}
