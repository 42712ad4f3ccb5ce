/** The mail to an endpoint's owners when it was turned off for failing (Mail.webhook in messages/), in their language. */
import type { Locale } from "@/lib/i18n/locales";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";
import { mailTranslator } from "@/lib/mail/mail-translator";

export const WEBHOOK_DISABLED_MAIL = "webhook_disabled";

export interface WebhookDisabledMail {
  /** the endpoint's URL and description, as its owners registered them */
  endpoint: string;
  description: string;
  hours: number;
  /** the outcome of the last attempt */
  lastError: string;
  /** where the owners turn it on again */
  url: string;
}

export async function renderWebhookDisabledMail(language: Locale, mail: WebhookDisabledMail): Promise<MailContent> {
  const t = await mailTranslator(language);
  const { endpoint, hours, lastError } = mail;
  return renderMail({
    lang: language,
    subject: t("webhook.disabled.subject"),
    before: [
      t("webhook.greeting"),
      t("webhook.disabled.intro", { endpoint, hours }),
      ...(mail.description ? [mail.description] : []),
      t("webhook.disabled.lastError", { lastError }),
      t("webhook.disabled.next"),
    ],
    action: { label: t("webhook.disabled.action"), url: mail.url },
    after: [t("webhook.why")],
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
