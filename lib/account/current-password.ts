/**
 * Proving it is still the account's owner before a change that hands the account over (a new password, a new email
 * address): the current password, checked under the sign-in throttle (a session left open must not be a way to guess
 * it), or, where the change allows it, a sign-in of the last five minutes.
 */
import { verifyPassword } from "@/lib/crypto/password";
import type { DataAccess } from "@/lib/service-context";
import type { User } from "@/lib/store/models/user";
import { recordFailedSignIn, recordRightPassword, reserveSignInAttempt } from "@/lib/session/login-throttle";
import { rehashOutdatedPassword } from "@/lib/session/password-rehash";

/** How recent a sign-in counts as fresh: the person at the keyboard just proved who they are. */
const FRESH_SIGN_IN_MS = 5 * 60_000;

export const isFreshSignIn = (authTime: Date, now = new Date()): boolean =>
  now.getTime() - authTime.getTime() <= FRESH_SIGN_IN_MS;

export type CurrentPasswordCheck =
  | { ok: true }
  | { ok: false; problem: "wrong_current_password" }
  | { ok: false; problem: "throttled"; retryAfterSeconds: number };

/** Who is at the keyboard proves they own the account: a fresh sign-in, or the current password (as above). */
export async function confirmAccountOwner(
  data: DataAccess,
  account: { user: User; authTime: Date },
  request: { currentPassword?: string; ipAddress?: string },
  now = new Date(),
): Promise<CurrentPasswordCheck | { ok: false; problem: "password_needed" }> {
  if (isFreshSignIn(account.authTime, now)) return { ok: true };
  if (!request.currentPassword) return { ok: false, problem: "password_needed" };
  return checkCurrentPassword(data, account.user, request.currentPassword, request.ipAddress, now);
}

export async function checkCurrentPassword(
  { stores }: Pick<DataAccess, "stores">,
  user: User,
  password: string,
  ipAddress: string | undefined,
  now = new Date(),
): Promise<CurrentPasswordCheck> {
  const reservation = await reserveSignInAttempt(stores.throttles, user.email, ipAddress, now);
  if (!reservation.ok) return { ok: false, problem: "throttled", retryAfterSeconds: reservation.retryAfterSeconds };
  if (!(await verifyPassword(password, user.passwordHash))) {
    await recordFailedSignIn(stores.throttles, reservation, "password", now);
    return { ok: false, problem: "wrong_current_password" };
  }
  const rehash = rehashOutdatedPassword(stores.users, user, password);
  // Guessed second-factor codes count on the account's key too: only a right factor clears it for such an account.
  const factors = await stores.secondFactors.count(user.id);
  await recordRightPassword(stores.throttles, reservation, { clearAccount: factors.passkeys === 0 && !factors.totp });
  await rehash;
  return { ok: true };
}
