/**
 * Changing one's own password on the profile page: the current password is checked under the sign-in throttle
 * (lib/account/current-password.ts), the new one under the password policy. Unless the person keeps them, the
 * other sessions, the applications' refresh tokens and the catalog tickets end; a notice goes to the account's
 * address, and the change is audited.
 */
import { hashPassword } from "@/lib/crypto/password";
import type { User } from "@/lib/store/models/user";
import { localeOr, type Locale } from "@/lib/i18n/locales";
import { checkNewPassword } from "@/lib/crypto/password-policy";
import { personalWordsOf } from "@/lib/crypto/password-estimator";
import { breachedPasswordCheck } from "@/lib/http/breached-passwords";
import type { AccountContext } from "@/lib/account/account-context";
import { passwordChangedNotice } from "@/lib/account/account-notices";
import { checkCurrentPassword, type CurrentPasswordCheck } from "@/lib/account/current-password";

export type PasswordChange = { ok: true; endedSessions: string[] } | Exclude<CurrentPasswordCheck, { ok: true }>;

export interface PasswordChangeRequest {
  current: string;
  next: string;
  language: Locale;
  ipAddress?: string;
  /** also end the other sessions, the applications' refresh tokens and the catalog tickets */
  signOutElsewhere: boolean;
}

/** Throws PasswordPolicyError when the new password is refused (before the current one is checked). */
export async function changeOwnPassword(
  context: AccountContext,
  account: { user: User; companyName: string; sessionId: string },
  request: PasswordChangeRequest,
  now = new Date(),
): Promise<PasswordChange> {
  const { config } = context;
  const { user } = account;
  const normalized = await checkNewPassword(request.next, {
    minLength: config.passwordMinLength,
    person: { ...user, companyName: account.companyName },
    languages: [request.language, user.preferredLanguage],
    breached: breachedPasswordCheck(config),
  });
  const current = await checkCurrentPassword(context, user, request.current, request.ipAddress, now);
  if (!current.ok) return current;
  const endedSessions = await context.stores.accountLinks.changePassword(
    { userId: user.id, keepSessionId: account.sessionId, signOutElsewhere: request.signOutElsewhere },
    await hashPassword(normalized),
    {
      mail: [await passwordChangedNotice(context, user.email, request.language)],
      event: {
        type: "user.password_changed",
        userId: user.id,
        ipAddress: request.ipAddress,
        details: { signedOutElsewhere: request.signOutElsewhere },
      },
    },
    now,
  );
  return { ok: true, endedSessions };
}

/**
 * The operator sets a user's password (`users password`, read from standard input): under the same policy, every
 * session, refresh token and ticket of the user ends, and the user gets the notice. Null when there is no such user.
 */
export async function setPasswordAsOperator(
  context: AccountContext,
  email: string,
  password: string,
  now = new Date(),
): Promise<{ endedSessions: string[] } | null> {
  const user = await context.stores.users.findWithCompanyByEmail(email);
  if (!user) return null;
  const normalized = await checkNewPassword(password, {
    minLength: context.config.passwordMinLength,
    person: personalWordsOf(user),
    languages: [user.preferredLanguage],
    breached: breachedPasswordCheck(context.config),
  });
  const language = localeOr(user.preferredLanguage);
  const endedSessions = await context.stores.accountLinks.changePassword(
    { userId: user.id, signOutElsewhere: true },
    await hashPassword(normalized),
    {
      mail: [await passwordChangedNotice(context, user.email, language)],
      event: { type: "user.password_changed", userId: user.id, details: { by: "operator" } },
    },
    now,
  );
  return { endedSessions };
}
