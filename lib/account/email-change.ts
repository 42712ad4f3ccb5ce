/**
 * Changing one's own email address (the user name): a confirmation link goes to the new address (24 hours, 256
 * random bits, only the hash stored, replacing any earlier one) and a notice to the old one. The address changes
 * only when the link is used, and is checked again then against the other users; it is verified from then on. A new
 * password (a reset or a change) cancels a change waiting for confirmation.
 */
import { EMAIL_CONFIRM_LINK_HOURS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { User } from "@/lib/db/rows";
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { Locale } from "@/lib/i18n/locales";
import { renderAccountMail } from "@/lib/mail/account-mail";
import { sealMail } from "@/lib/mail/outbox";
import { confirmEmailByLink, isEmailInUse, storeAccountLink } from "@/lib/store/account-link-store";
import { forgetUser } from "@/lib/store/user-store";
import { parseEmail } from "@/lib/admin/person-fields";
import { reserveEmailChange } from "@/lib/session/email-change-throttle";
import type { AccountContext } from "@/lib/account/account-context";
import { readAccountLink, type ClosedAccountLink } from "@/lib/account/account-links";
import { forgotPasswordUrl } from "@/lib/account/account-notices";

export class EmailChangeError extends OptiGateError<"same_email" | "throttled"> {
  constructor(
    readonly code: "same_email" | "throttled",
    readonly retryAfterSeconds = 0,
  ) {
    super(code === "same_email" ? "this is the address already" : "too many address changes asked for");
  }
}

/**
 * Asks for the new address: PersonFieldError for an address that is none, EmailChangeError for the user's own
 * address or too many requests. The answer is the same whether or not the address is free: when it belongs to
 * another account (or has an invitation waiting), the new address is told so instead of getting a link, so the form
 * cannot be used to find out who has an account.
 */
export async function requestEmailChange(
  context: AccountContext,
  user: User,
  request: { newEmail: string; language: Locale; ipAddress?: string },
  now = new Date(),
): Promise<string> {
  const newEmail = parseEmail(request.newEmail);
  if (newEmail === user.email) throw new EmailChangeError("same_email");
  const wait = await reserveEmailChange(context.db, user.id, now);
  if (wait > 0) throw new EmailChangeError("throttled", wait);
  const { publicUrl, secretKey } = context.config;
  const { language } = request;
  const token = generateOpaqueToken();
  const inUse = await isEmailInUse(context.db, newEmail);
  const toNewAddress = inUse
    ? await renderAccountMail(language, {
        kind: "email_in_use",
        url: `${publicUrl}/login?${new URLSearchParams({ ui_locales: language })}`,
        newEmail,
      })
    : await renderAccountMail(language, {
        kind: "email_confirm",
        url: `${publicUrl}/email/confirm?${new URLSearchParams({ token, ui_locales: language })}`,
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
    tokenHash: hashToken(token),
    newEmail,
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
  await storeAccountLink(context.db, link, { mail, event }, now);
  return newEmail;
}

/** Makes the link's address the user's; the new address, or why the link cannot be used. */
export async function confirmEmailChange(
  context: AccountContext,
  token: string | undefined,
  ipAddress: string | undefined,
  now = new Date(),
): Promise<{ email: string } | { closed: ClosedAccountLink | "email_taken" }> {
  const link = await readAccountLink(context.db, token, "email_change", now);
  if (link.state !== "open") return { closed: link.state };
  const newEmail = link.newEmail!;
  const event = {
    type: "user.email_changed" as const,
    userId: link.user.id,
    ipAddress,
    details: { username: newEmail, previous: link.user.email },
  };
  const outcome = await confirmEmailByLink(
    context.db,
    { id: link.id, tokenHash: link.tokenHash, userId: link.user.id, newEmail },
    { mail: [], event },
    now,
  );
  if (outcome !== "changed") return { closed: outcome };
  // Tokens issued from now on carry the new address at once in this process.
  forgetUser(link.user.id);
  return { email: newEmail };
}
