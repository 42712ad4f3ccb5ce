/**
 * Changing one's own password on the profile page: the current password is checked under the sign-in throttle (a
 * session left open must not be a way to guess it), the new one under the password policy. The other sessions end,
 * a notice goes to the account's address, and the change is audited.
 */
import { hashPassword, verifyPassword } from "@/lib/crypto/password";
import type { User } from "@/lib/db/rows";
import type { Locale } from "@/lib/i18n/locales";
import { checkNewPassword } from "@/lib/passwords/password-policy";
import { personalWordsOf } from "@/lib/passwords/password-estimator";
import { recordFailedSignIn, recordRightPassword, reserveSignInAttempt } from "@/lib/session/login-throttle";
import { changePasswordHash } from "@/lib/store/account-link-store";
import { findUserWithCompanyByEmail } from "@/lib/store/user-store";
import type { AccountContext } from "@/lib/account/account-context";
import { passwordChangedNotice } from "@/lib/account/account-notices";

export type PasswordChange =
  | { ok: true; endedSessions: string[] }
  | { ok: false; problem: "wrong_current_password" }
  | { ok: false; problem: "throttled"; retryAfterSeconds: number };

export interface PasswordChangeRequest {
  current: string;
  next: string;
  language: Locale;
  ipAddress?: string;
}

/** Throws PasswordPolicyError when the new password is refused (before the current one is checked). */
export async function changeOwnPassword(
  context: AccountContext,
  account: { user: User; companyName: string; sessionId: string },
  request: PasswordChangeRequest,
  now = new Date(),
): Promise<PasswordChange> {
  const { db, config } = context;
  const { user } = account;
  const normalized = checkNewPassword(request.next, {
    minLength: config.passwordMinLength,
    person: { ...user, companyName: account.companyName },
  });
  const reservation = await reserveSignInAttempt(db, user.email, request.ipAddress, now);
  if (!reservation.ok) return { ok: false, problem: "throttled", retryAfterSeconds: reservation.retryAfterSeconds };
  if (!(await verifyPassword(request.current, user.passwordHash))) {
    await recordFailedSignIn(db, reservation, now);
    return { ok: false, problem: "wrong_current_password" };
  }
  await recordRightPassword(db, reservation, { clearAccount: true });
  const endedSessions = await changePasswordHash(
    db,
    { userId: user.id, keepSessionId: account.sessionId },
    await hashPassword(normalized),
    {
      mail: [await passwordChangedNotice(context, user.email, request.language)],
      event: { type: "user.password_changed", userId: user.id, ipAddress: request.ipAddress },
    },
    now,
  );
  return { ok: true, endedSessions };
}

/**
 * The operator sets a user's password (`users password`, read from standard input): under the same policy, every
 * session of the user ends, and the user gets the notice. Null when there is no such user.
 */
export async function setPasswordAsOperator(
  context: AccountContext,
  email: string,
  password: string,
  now = new Date(),
): Promise<{ endedSessions: string[] } | null> {
  const user = await findUserWithCompanyByEmail(context.db, email);
  if (!user) return null;
  const normalized = checkNewPassword(password, {
    minLength: context.config.passwordMinLength,
    person: personalWordsOf(user),
  });
  const language = user.preferredLanguage === "de" ? "de" : "en";
  const endedSessions = await changePasswordHash(
    context.db,
    { userId: user.id },
    await hashPassword(normalized),
    {
      mail: [await passwordChangedNotice(context, user.email, language)],
      event: { type: "user.password_changed", userId: user.id, details: { by: "operator" } },
    },
    now,
  );
  return { endedSessions };
}
