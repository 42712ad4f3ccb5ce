/**
 * The mail about a user's own account (Mail.account in messages/): the password reset link, the confirmation of a
 * new address, and the notices that tell the owner of an address what changed or who signed in, each with what to do
 * if it was not them.
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
  | { kind: "second_factors_reset"; url: string }
  | { kind: "password_reset_done"; url: string; recentFactors: RecentFactor[] }
  | { kind: "second_factor_changed"; url: string; change: FactorChange }
  | ({ kind: "new_sign_in"; url: string; email: string; days: number } & SignInSighting);

/** A sign-in as its notice describes it: when, with which browser (short, from its user agent) and from where. */
interface SignInSighting {
  signedInAt: Date;
  browser: string | null;
  ipAddress: string | null;
}

/** A second factor as a notice names it: its kind and when it was added, never the name someone gave it. */
export interface RecentFactor {
  kind: "passkey" | "app";
  addedAt: Date;
}

export type FactorChange = "passkey_added" | "passkey_removed" | "app_added" | "app_removed" | "recovery_renewed";

const CHANGE_TEXT = {
  passkey_added: "passkeyAdded",
  passkey_removed: "passkeyRemoved",
  app_added: "appAdded",
  app_removed: "appRemoved",
  recovery_renewed: "recoveryRenewed",
} as const;

/** The factors added lately, a line each, in the mail's language (dates in UTC, as the mail cannot know the zone). */
function recentFactorLines(t: MailTranslator, language: Locale, factors: RecentFactor[]): string[] {
  if (factors.length === 0) return [t("account.passwordResetDone.noRecentFactors")];
  const day = new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" });
  return [
    t("account.passwordResetDone.recentFactors"),
    ...factors.map((factor) =>
      t(factor.kind === "passkey" ? "account.passwordResetDone.passkey" : "account.passwordResetDone.app", {
        date: day.format(factor.addedAt),
      }),
    ),
    t("account.passwordResetDone.checkFactors"),
  ];
}

/** The sign-in's facts, a line each (its time in UTC, as the mail cannot know the zone). */
function sightingLines(t: MailTranslator, language: Locale, sighting: SignInSighting): string[] {
  const time = new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
  const unknown = t("account.newSignIn.unknown");
  return [
    t("account.newSignIn.when", { when: time.format(sighting.signedInAt) }),
    t("account.newSignIn.browser", { browser: sighting.browser ?? unknown }),
    t("account.newSignIn.address", { address: sighting.ipAddress ?? unknown }),
  ];
}

type Paragraphs = { before: string[]; after: string[] };

function paragraphs(t: MailTranslator, language: Locale, mail: AccountMail): Paragraphs {
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
    case "password_reset_done":
      return {
        before: [greeting, t("account.passwordResetDone.intro"), ...recentFactorLines(t, language, mail.recentFactors)],
        after: [t("account.passwordResetDone.notYou")],
      };
    case "second_factor_changed":
      return {
        before: [greeting, t(`account.secondFactorChanged.${CHANGE_TEXT[mail.change]}`)],
        after: [t("account.secondFactorChanged.notYou")],
      };
    case "new_sign_in":
      return {
        before: [greeting, t("account.newSignIn.intro", { email: mail.email }), ...sightingLines(t, language, mail)],
        after: [t("account.newSignIn.notYou"), t("account.newSignIn.expiry", { days: mail.days })],
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
  password_reset_done: "passwordResetDone",
  second_factor_changed: "secondFactorChanged",
  new_sign_in: "newSignIn",
} as const;

export async function renderAccountMail(language: Locale, mail: AccountMail): Promise<MailContent> {
  const t = await mailTranslator(language);
  const template = TEMPLATE[mail.kind];
  return renderMail({
    lang: language,
    subject: t(`account.${template}.subject`),
    ...paragraphs(t, language, mail),
    action: { label: t(`account.${template}.action`), url: mail.url },
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
