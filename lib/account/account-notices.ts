/**
 * The notices mailed to an account's address when its password, address or second factors change, with what to do
 * if it was not them: a new password through their mail.
 */
import { PAGES } from "@/lib/http/paths";
import type { Locale } from "@/lib/i18n/locales";
import { renderAccountMail, type FactorChange, type RecentFactor } from "@/lib/mail/account-mail";
import { sealMail } from "@/lib/mail/outbox";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type { AccountContext } from "@/lib/account/account-context";

/** Where a person who did not make the change goes: a new password through their mail. */
export const forgotPasswordUrl = (publicUrl: string, language: Locale) =>
  `${publicUrl}${PAGES.forgotPassword}?${new URLSearchParams({ ui_locales: language })}`;

type Notice =
  | { kind: "password_changed" }
  | { kind: "password_reset_done"; recentFactors: RecentFactor[] }
  | { kind: "second_factor_changed"; change: FactorChange };

async function notice(
  context: AccountContext,
  recipient: string,
  language: Locale,
  mail: Notice,
): Promise<NewOutboxMessage> {
  const content = await renderAccountMail(language, {
    ...mail,
    url: forgotPasswordUrl(context.config.publicUrl, language),
  });
  return sealMail(context.config.secretKey, { kind: mail.kind, recipient, language, content });
}

export const passwordChangedNotice = (context: AccountContext, recipient: string, language: Locale) =>
  notice(context, recipient, language, { kind: "password_changed" });

/** The confirmation of a reset by mail: what it ended, and the second factors added in the last days. */
export const passwordResetNotice = (
  context: AccountContext,
  recipient: string,
  language: Locale,
  recentFactors: RecentFactor[],
) => notice(context, recipient, language, { kind: "password_reset_done", recentFactors });

/** A second factor added or removed, or new recovery codes: the owner hears of it, with a way out if it was not them. */
export const secondFactorNotice = (
  context: AccountContext,
  recipient: string,
  language: Locale,
  change: FactorChange,
) => notice(context, recipient, language, { kind: "second_factor_changed", change });
