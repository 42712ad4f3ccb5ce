/** Every mail OptiGate sends, in every language: translated, whole, with the link intact and counts in plural. */
import { describe, expect, it } from "vitest";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { renderAccountMail, type AccountMail } from "@/lib/mail/account-mail";
import { renderInvitationMail } from "@/lib/mail/invitation-mail";
import type { MailContent } from "@/lib/mail/mail-content";
import { renderPartnerMail, type PartnerMail } from "@/lib/mail/partner-mail";

const URL_SENT = "https://id.example.com/link?token=abc";

const ACCOUNT_MAILS: AccountMail[] = [
  { kind: "password_reset", url: URL_SENT, minutes: 60 },
  { kind: "password_changed", url: URL_SENT },
  { kind: "email_confirm", url: URL_SENT, hours: 24, newEmail: "neu@example.com" },
  { kind: "email_change_notice", url: URL_SENT, newEmail: "neu@example.com" },
  { kind: "email_in_use", url: URL_SENT, newEmail: "neu@example.com" },
  { kind: "second_factors_reset", url: URL_SENT },
];
const PARTNER_MAILS: PartnerMail[] = [
  { kind: "application_approved", application: "Praxissoft", url: URL_SENT },
  { kind: "application_change_approved", application: "Praxissoft", url: URL_SENT },
  { kind: "application_rejected", application: "Praxissoft", reason: "no privacy policy", url: URL_SENT },
  { kind: "secret_expiring", application: "Praxissoft", secret: "build server", days: 14, url: URL_SENT },
];

async function everyMail(language: Locale): Promise<[string, MailContent][]> {
  const invitation = { language, companyName: "Optik Klar", inviterName: "Olivia Optik", url: URL_SENT, validDays: 7 };
  return [
    ["invitation", await renderInvitationMail(invitation)],
    ...(await Promise.all(ACCOUNT_MAILS.map(async (mail) => [mail.kind, await renderAccountMail(language, mail)]))),
    ...(await Promise.all(PARTNER_MAILS.map(async (mail) => [mail.kind, await renderPartnerMail(language, mail)]))),
  ] as [string, MailContent][];
}

describe("mail in every language", () => {
  it.each(LOCALES.filter((locale) => locale !== "en").map((locale) => [locale]))(
    "%s: each mail is translated, names its language, and carries the link",
    async (locale) => {
      const english = new Map(await everyMail("en"));
      for (const [kind, mail] of await everyMail(locale)) {
        expect(mail.subject, kind).not.toBe(english.get(kind)!.subject);
        expect(mail.text, kind).not.toBe(english.get(kind)!.text);
        expect(mail.html, kind).toContain(`<html lang="${locale}">`);
        expect(mail.text, kind).toContain(URL_SENT);
        // A message missing in the language would show its key path instead of text.
        expect(`${mail.subject}\n${mail.text}`, kind).not.toMatch(/\b(Mail|invitation|account|partner)\.[a-zA-Z]+/);
      }
    },
  );

  it("counts in each language's plural (Polish: one, few, many)", async () => {
    const resetText = async (language: Locale, minutes: number) =>
      (await renderAccountMail(language, { kind: "password_reset", url: URL_SENT, minutes })).text;
    expect(await resetText("pl", 1)).toContain(" 1 minutę");
    expect(await resetText("pl", 3)).toContain(" 3 minuty");
    expect(await resetText("pl", 5)).toContain(" 5 minut");
    expect(await resetText("pl", 22)).toContain(" 22 minuty");
    expect(await resetText("en", 1)).toContain(" 1 minute");
    expect(await resetText("en", 1)).not.toContain("1 minutes");
  });
});
