/**
 * "Forgot password": asking for a reset link, the mail, and setting the new password through the link.
 *
 * Asking does the same work whatever the address: the request is counted under the reset throttle and queued as a
 * deferred mail, without looking at any account. The outbox worker composes it when it is due: for an active user
 * it stores a new link (256 random bits, only the SHA-256 kept, PASSWORD_RESET_LINK_MINUTES, replacing any earlier
 * one) and mails it; for an unknown or deactivated address, or one whose company allows only its own sign-in
 * (lib/session/sso-only-address.ts), it drops the request. So neither the answer nor its time says whether an account
 * exists.
 */
import { PAGES } from "@/lib/http/paths";
import { PASSWORD_RESET_LINK_MINUTES } from "@/lib/config/policy";
import { hashPassword } from "@/lib/crypto/password";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { localeOr, type Locale } from "@/lib/i18n/locales";
import { renderAccountMail } from "@/lib/mail/account-mail";
import type { MailContent } from "@/lib/mail/mail-content";
import { sealDeferredMail } from "@/lib/mail/outbox";
import { checkNewPassword } from "@/lib/crypto/password-policy";
import { personalWordsOf } from "@/lib/crypto/password-estimator";
import { breachedPasswordCheck } from "@/lib/http/breached-passwords";
import { reservePasswordReset } from "@/lib/account/reset-throttle";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import { readAccountLink, type ClosedAccountLink } from "@/lib/account/account-links";
import type { AccountContext } from "@/lib/account/account-context";
import { passwordResetNotice } from "@/lib/account/account-notices";
import { isSsoOnlyAddress } from "@/lib/session/sso-only-address";

/** How far back the confirmation of a reset looks for second factors someone else may have added. */
const RECENT_FACTOR_DAYS = 14;

export const PASSWORD_RESET_MAIL = "password_reset";

/**
 * Asks for a reset mail to `email` (already checked to be an address): the seconds the asker's network must wait,
 * or 0 (also when the address had its share of mail this hour: then nothing more is sent, and nothing said).
 */
export async function requestPasswordReset(
  context: AccountContext,
  request: { email: string; language: Locale; ipAddress?: string },
  now = new Date(),
): Promise<number> {
  const reservation = await reservePasswordReset(context.stores.throttles, request.email, request.ipAddress, now);
  if (!reservation.ok) return reservation.scope === "address" ? reservation.retryAfterSeconds : 0;
  const deferred = sealDeferredMail(context.config.secretKey, {
    kind: PASSWORD_RESET_MAIL,
    recipient: request.email,
    language: request.language,
    request: {},
  });
  await context.stores.outbox.queue(deferred, now);
  return 0;
}

/** The outbox worker's composer of reset mail: a new link for an active user, nothing for any other address. */
export function passwordResetComposer(context: AccountContext) {
  return async (mail: { recipient: string; language: string; request: Record<string, string> }) => {
    const now = new Date();
    const user = await context.stores.users.findWithCompanyByEmail(mail.recipient);
    if (!user?.active || !user.company.active || (await isSsoOnlyAddress(context.stores, user.email))) return null;
    const token = generateOpaqueToken();
    // The language the request was made in: the one the person reads the pages in now.
    const language = localeOr(mail.language);
    const url = `${context.config.publicUrl}${PAGES.resetPassword}?${new URLSearchParams({ token, ui_locales: language })}`;
    const content: MailContent = await renderAccountMail(language, {
      kind: "password_reset",
      url,
      minutes: PASSWORD_RESET_LINK_MINUTES,
    });
    const link = {
      userId: user.id,
      purpose: "password_reset" as const,
      sentTo: user.email,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_LINK_MINUTES * 60_000),
    };
    const event = { type: "user.password_reset" as const, userId: user.id, details: { step: "link_sent" } };
    await context.stores.accountLinks.save(token, link, { mail: [], event }, now);
    return content;
  };
}

/** Sets the password through an open reset link; the user's id and where to go on, or why the link is closed. */
export async function resetPassword(
  context: AccountContext,
  token: string | undefined,
  submitted: { password: string; language: Locale; ipAddress?: string },
  now = new Date(),
): Promise<{ userId: string; endedSessions: string[] } | { closed: ClosedAccountLink }> {
  const link = await readAccountLink(context.stores.accountLinks, token, "password_reset", now);
  if (link.state !== "open") return { closed: link.state };
  // A link mailed before the company made its own sign-in the only way in opens nothing now.
  if (await isSsoOnlyAddress(context.stores, link.user.email)) return { closed: "unknown" };
  const { user } = link;
  const normalized = await checkNewPassword(submitted.password, {
    minLength: context.config.passwordMinLength,
    person: personalWordsOf(user),
    languages: [submitted.language, user.preferredLanguage],
    breached: breachedPasswordCheck(context.config),
  });
  const passwordHash = await hashPassword(normalized);
  const { language, ipAddress } = submitted;
  const recentFactors = await context.stores.secondFactors.listAddedSince(
    user.id,
    new Date(now.getTime() - RECENT_FACTOR_DAYS * 86_400_000),
  );
  const ended = await context.stores.accountLinks.resetPassword(
    { id: link.id, tokenHash: link.tokenHash, userId: user.id },
    passwordHash,
    {
      mail: [await passwordResetNotice(context, user.email, language, recentFactors)],
      event: { type: "user.password_reset", userId: user.id, ipAddress, details: { step: "password_set" } },
    },
    now,
  );
  if (!ended) return { closed: "used" };
  // The person proved they read the account's mail: a lock-out from failed passwords is over. Guessed second-factor
  // codes count on the same key, and only a right factor clears them (docs/second-factor.md).
  const factors = await context.stores.secondFactors.count(user.id);
  if (factors.passkeys === 0 && !factors.totp) await context.stores.throttles.clear(accountThrottleKey(user.email));
  return { userId: user.id, endedSessions: ended };
}
