/**
 * Changing one's own email address (the user name): a confirmation link goes to the new address (24 hours, 256
 * random bits, only the hash stored, replacing any earlier one) and a notice to the old one. The address changes
 * only when the link is used, and is checked again then against the other users; it is verified from then on. A new
 * password (a reset or a change) cancels a change waiting for confirmation. Since whoever controls the address can
 * then reset the password, asking for it needs the current password unless the sign-in is fresh (five minutes).
 */
import { PAGES } from "@/lib/http/paths";
import { EMAIL_CONFIRM_LINK_HOURS } from "@/lib/config/policy";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { User } from "@/lib/store/models/user";
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { Locale } from "@/lib/i18n/locales";
import { renderAccountMail } from "@/lib/mail/account-mail";
import { sealMail } from "@/lib/mail/outbox";
import { forgetUser } from "@/lib/store/user-store";
import { parseEmail } from "@/lib/admin/person-fields";
import { reserveEmailChange } from "@/lib/account/email-change-throttle";
import type { AccountContext } from "@/lib/account/account-context";
import { readAccountLink, type ClosedAccountLink } from "@/lib/account/account-links";
import { forgotPasswordUrl } from "@/lib/account/account-notices";
import { confirmAccountOwner } from "@/lib/account/current-password";

type EmailChangeProblem =
  "same_email" | "throttled" | "password_needed" | "wrong_current_password" | "throttled_sign_in";

const MESSAGES: Record<EmailChangeProblem, string> = {
  same_email: "this is the address already",
  throttled: "too many address changes asked for",
  password_needed: "the current password is needed: the sign-in is not fresh",
  wrong_current_password: "the current password is not correct",
  throttled_sign_in: "too many password attempts",
};

export class EmailChangeError extends OptiGateError<EmailChangeProblem> {
  constructor(
    readonly code: EmailChangeProblem,
    readonly retryAfterSeconds = 0,
  ) {
    super(MESSAGES[code]);
  }
}

/** The owner proves it: a fresh sign-in, or the current password under the sign-in throttle. */
async function confirmOwner(
  context: AccountContext,
  account: { user: User; authTime: Date },
  request: { currentPassword?: string; ipAddress?: string },
  now: Date,
): Promise<void> {
  const check = await confirmAccountOwner(context, account, request, now);
  if (check.ok) return;
  throw check.problem === "throttled"
    ? new EmailChangeError("throttled_sign_in", check.retryAfterSeconds)
    : new EmailChangeError(check.problem);
}

/**
 * Asks for the new address: PersonFieldError for an address that is none, EmailChangeError for the user's own
 * address, a missing or wrong current password (when the sign-in is not fresh) or too many requests. The answer is the same whether or not the address is free: when it belongs to
 * another account (or has an invitation waiting), the new address is told so instead of getting a link, so the form
 * cannot be used to find out who has an account.
 */
export async function requestEmailChange(
  context: AccountContext,
  account: { user: User; authTime: Date },
  request: { newEmail: string; currentPassword?: string; language: Locale; ipAddress?: string },
  now = new Date(),
): Promise<string> {
  const { user } = account;
  const newEmail = parseEmail(request.newEmail);
  if (newEmail === user.email) throw new EmailChangeError("same_email");
  await confirmOwner(context, account, request, now);
  const wait = await reserveEmailChange(context.stores.throttles, user.id, now);
  if (wait > 0) throw new EmailChangeError("throttled", wait);
  const { publicUrl, secretKey } = context.config;
  const { language } = request;
  const token = generateOpaqueToken();
  const inUse = await context.stores.accountLinks.isEmailInUse(newEmail);
  const toNewAddress = inUse
    ? await renderAccountMail(language, {
        kind: "email_in_use",
        url: `${publicUrl}${PAGES.login}?${new URLSearchParams({ ui_locales: language })}`,
        newEmail,
      })
    : await renderAccountMail(language, {
        kind: "email_confirm",
        url: `${publicUrl}${PAGES.confirmEmail}?${new URLSearchParams({ token, ui_locales: language })}`,
        hours: EMAIL_CONFIRM_LINK_HOURS,
        newEmail,
      });
  const notice = await renderAccountMail(language, {
    kind: "email_change_notice",
    url: forgotPasswordUrl(publicUrl, language),
    newEmail,
  });
  const link = {
    userId: user.id,
    purpose: "email_change" as const,
    newEmail,
    sentTo: newEmail,
    expiresAt: new Date(now.getTime() + EMAIL_CONFIRM_LINK_HOURS * 3_600_000),
  };
  const mail = [
    sealMail(secretKey, {
      kind: inUse ? "email_in_use" : "email_confirm",
      recipient: newEmail,
      language,
      content: toNewAddress,
    }),
    sealMail(secretKey, { kind: "email_change_notice", recipient: user.email, language, content: notice }),
  ];
  const event = {
    type: "user.email_change_requested" as const,
    userId: user.id,
    ipAddress: request.ipAddress,
    details: { username: user.email, newEmail, inUse },
  };
  await context.stores.accountLinks.save(token, link, { mail, event }, now);
  return newEmail;
}

/**
 * Makes the link's address the user's; the new address and the sessions that ended (all but the confirming
 * browser's own, when it is the user's), or why the link cannot be used.
 */
export async function confirmEmailChange(
  context: AccountContext,
  token: string | undefined,
  request: { ipAddress?: string; session: { id: string; user: { id: string } } | null },
  now = new Date(),
): Promise<{ email: string; endedSessions: string[] } | { closed: ClosedAccountLink | "email_taken" }> {
  const { ipAddress } = request;
  const link = await readAccountLink(context.stores.accountLinks, token, "email_change", now);
  if (link.state !== "open") return { closed: link.state };
  const newEmail = link.newEmail!;
  const event = {
    type: "user.email_changed" as const,
    userId: link.user.id,
    ipAddress,
    details: { username: newEmail, previous: link.user.email },
  };
  const keepSessionId = request.session?.user.id === link.user.id ? request.session.id : undefined;
  const outcome = await context.stores.accountLinks.confirmEmail(
    { id: link.id, tokenHash: link.tokenHash, userId: link.user.id, newEmail },
    { mail: [], event, keepSessionId },
    now,
  );
  if (typeof outcome === "string") return { closed: outcome };
  // Tokens issued from now on carry the new address at once in this process.
  forgetUser(link.user.id);
  return { email: newEmail, endedSessions: outcome.endedSessions };
}
