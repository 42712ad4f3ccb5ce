/** The notices mailed to an account's address when its password or address changes, with what to do if it was not them. */
import type { Locale } from "@/lib/i18n/locales";
import { renderAccountMail } from "@/lib/mail/account-mail";
import { sealMail } from "@/lib/mail/outbox";
import type { NewOutboxMessage } from "@/lib/store/outbox-store";
import type { AccountContext } from "@/lib/account/account-context";

/** Where a person who did not make the change goes: a new password through their mail. */
export const forgotPasswordUrl = (publicUrl: string, language: Locale) =>
  `${publicUrl}/password/forgot?${new URLSearchParams({ ui_locales: language })}`;

export async function passwordChangedNotice(
  context: AccountContext,
  recipient: string,
  language: Locale,
): Promise<NewOutboxMessage> {
  const content = await renderAccountMail(language, {
    kind: "password_changed",
    url: forgotPasswordUrl(context.config.publicUrl, language),
  });
  return sealMail(context.config.secretKey, { kind: "password_changed", recipient, language, content });
}
