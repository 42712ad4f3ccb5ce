/** The test mail an operator sends to check that mail reaches an address (Mail.test in messages/). */
import type { Locale } from "@/lib/i18n/locales";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";
import { mailTranslator } from "@/lib/mail/mail-translator";

export async function renderTestMail(language: Locale, url: string): Promise<MailContent> {
  const t = await mailTranslator(language);
  return renderMail({
    lang: language,
    subject: t("test.subject"),
    before: [t("account.greeting"), t("test.intro")],
    action: { label: t("test.action"), url },
    after: [t("test.why")],
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
