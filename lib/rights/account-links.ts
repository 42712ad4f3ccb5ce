/**
 * The pages a mailed link opens, and asking for one: public, since the token in the link is the right (checked in
 * lib/account/account-links.ts), and asking for a reset must work for anyone without saying whose address it is.
 * A reset ends the user's sessions (their applications are told) and signs them in fresh, or, for a user with a
 * second factor, leads to the second step (a sign-in by email link, for the metrics).
 */
import { isSsoOnlyAddress } from "@/lib/session/sso-only-address";
import "server-only";
import type { Locale } from "@/lib/i18n/locales";
import { readAccountLink } from "@/lib/account/account-links";
import { personalWordsOf } from "@/lib/crypto/password-estimator";
import { confirmEmailChange } from "@/lib/account/email-change";
import { requestPasswordReset, resetPassword } from "@/lib/account/password-reset";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { getServiceContext, type ServiceContext } from "@/lib/service-context";
import { findActiveSession, signInUser } from "@/lib/session/login-session";
import { countSignIn } from "@/lib/observability/metrics";

export type { ClosedAccountLink } from "@/lib/account/account-links";
export { PasswordPolicyError } from "@/lib/crypto/password-policy";

/**
 * What the reset page shows: the account's address while the link is open, with the words and the language its
 * strength meter reads as the server does (the link's holder owns the account), or why it is closed.
 */
export async function resetLinkOf(token: string | undefined) {
  const { stores } = getServiceContext();
  const link = await readAccountLink(stores.accountLinks, token, "password_reset");
  if (link.state !== "open") return link;
  // An address whose company signs in only at its own provider sets no password (lib/account/password-reset.ts).
  if (await isSsoOnlyAddress(stores, link.user.email)) return { state: "unknown" as const };
  return {
    state: link.state,
    email: link.user.email,
    person: personalWordsOf(link.user),
    language: link.user.preferredLanguage,
  };
}

/** What the confirmation page shows: the old and the new address while the link is open, or why it is closed. */
export async function emailLinkOf(token: string | undefined) {
  const link = await readAccountLink(getServiceContext().stores.accountLinks, token, "email_change");
  return link.state === "open" ? { state: link.state, email: link.user.email, newEmail: link.newEmail ?? "" } : link;
}

export async function askForPasswordReset(
  context: ServiceContext,
  request: { email: string; language: Locale; ipAddress?: string },
): Promise<number> {
  const wait = await requestPasswordReset(context, request);
  if (wait === 0) wakeMailDelivery();
  return wait;
}

export async function resetPasswordAndSignIn(
  context: ServiceContext,
  token: string | undefined,
  submitted: { password: string; language: Locale },
  client: { ipAddress?: string; userAgent?: string },
) {
  const reset = await resetPassword(context, token, { ...submitted, ipAddress: client.ipAddress });
  if ("closed" in reset) return reset;
  wakeMailDelivery();
  await announceBackchannelLogout(context, reset.endedSessions);
  // Reading the account's mail is no second factor: a user who has one still takes the second step.
  const factors = await context.stores.secondFactors.count(reset.userId);
  if (factors.passkeys > 0 || factors.totp) {
    countSignIn("email_link", "second_factor_required");
    return { next: "second_step" as const, userId: reset.userId };
  }
  const { cookieValue } = await signInUser(context.stores, { id: reset.userId }, client, { passwordReset: true });
  countSignIn("email_link", "success");
  return { next: "session" as const, cookieValue };
}

/**
 * Confirms a new address through its link. The old mailbox's reset links close and the other sessions end (their
 * applications are told); the session of the browser confirming stays when it is the account's own.
 */
export async function confirmNewEmail(
  context: ServiceContext,
  token: string | undefined,
  request: { ipAddress?: string; sessionCookie?: string },
) {
  const session = await findActiveSession(context.stores.loginSessions, request.sessionCookie);
  const confirmed = await confirmEmailChange(context, token, { ipAddress: request.ipAddress, session });
  if ("endedSessions" in confirmed) await announceBackchannelLogout(context, confirmed.endedSessions);
  return confirmed;
}
