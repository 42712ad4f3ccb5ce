/**
 * The notices mailed to an account's address when its password, address or second factors change, with what to do
 * if it was not them.
 */
import type { Locale } from "@/lib/i18n/locales";
import { renderAccountMail, type FactorChange, type RecentFactor } from "@/lib/mail/account-mail";
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

/** The confirmation of a reset by mail: what it ended, and the second factors added in the last days. */
export async function passwordResetNotice(
  context: AccountContext,
  recipient: string,
  language: Locale,
  recentFactors: RecentFactor[],
): Promise<NewOutboxMessage> {
  const content = await renderAccountMail(language, {
    kind: "password_reset_done",
    url: forgotPasswordUrl(context.config.publicUrl, language),
    recentFactors,
  });
  return sealMail(context.config.secretKey, { kind: "password_reset_done", recipient, language, content });
}

/** A second factor added or removed, or new recovery codes: the owner hears of it, with a way out if it was not them. */
export async function secondFactorNotice(
  context: AccountContext,
  recipient: string,
  language: Locale,
  change: FactorChange,
): Promise<NewOutboxMessage> {
  const content = await renderAccountMail(language, {
    kind: "second_factor_changed",
    url: forgotPasswordUrl(context.config.publicUrl, language),
    change,
  });
  return sealMail(context.config.secretKey, { kind: "second_factor_changed", recipient, language, content });
}
