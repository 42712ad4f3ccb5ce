/**
 * The mail about a user's own account (Mail.account in messages/): the password reset link, the confirmation of a
 * new address, and the notices that tell the owner of an address what changed, each with what to do if it was not
 * them.
 */
import type { Locale } from "@/lib/i18n/locales";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";
import { mailTranslator, type MailTranslator } from "@/lib/mail/mail-translator";

export type AccountMail =
  | { kind: "password_reset"; url: string; minutes: number }
  | { kind: "password_changed"; url: string }
  | { kind: "email_confirm"; url: string; hours: number; newEmail: string }
  | { kind: "email_change_notice"; url: string; newEmail: string }
  | { kind: "email_in_use"; url: string; newEmail: string }
  | { kind: "second_factors_reset"; url: string };

type Paragraphs = { before: string[]; after: string[] };

function paragraphs(t: MailTranslator, mail: AccountMail): Paragraphs {
  const greeting = t("account.greeting");
  switch (mail.kind) {
    case "password_reset":
      return {
        before: [greeting, t("account.passwordReset.intro")],
        after: [t("account.passwordReset.expiry", { minutes: mail.minutes }), t("account.passwordReset.ignore")],
      };
    case "password_changed":
      return { before: [greeting, t("account.passwordChanged.intro")], after: [t("account.passwordChanged.notYou")] };
    case "email_confirm":
      return {
        before: [greeting, t("account.emailConfirm.intro", { email: mail.newEmail })],
        after: [t("account.emailConfirm.expiry", { hours: mail.hours }), t("account.emailConfirm.ignore")],
      };
    case "email_change_notice":
      return {
        before: [greeting, t("account.emailChangeNotice.intro", { email: mail.newEmail })],
        after: [t("account.emailChangeNotice.notYou")],
      };
    case "email_in_use":
      return {
        before: [greeting, t("account.emailInUse.intro", { email: mail.newEmail })],
        after: [t("account.emailInUse.ignore")],
      };
    case "second_factors_reset":
      return {
        before: [greeting, t("account.secondFactorsReset.intro")],
        after: [t("account.secondFactorsReset.notYou")],
      };
  }
}

const TEMPLATE = {
  password_reset: "passwordReset",
  password_changed: "passwordChanged",
  email_confirm: "emailConfirm",
  email_change_notice: "emailChangeNotice",
  email_in_use: "emailInUse",
  second_factors_reset: "secondFactorsReset",
} as const;

export async function renderAccountMail(language: Locale, mail: AccountMail): Promise<MailContent> {
  const t = await mailTranslator(language);
  const template = TEMPLATE[mail.kind];
  return renderMail({
    lang: language,
    subject: t(`account.${template}.subject`),
    ...paragraphs(t, mail),
    action: { label: t(`account.${template}.action`), url: mail.url },
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
