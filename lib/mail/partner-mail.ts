/** The mail to a software vendor's developers (Mail.partner in messages/): a review's outcome, a secret expiring soon. */
import type { Locale } from "@/lib/i18n/locales";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";
import { mailTranslator } from "@/lib/mail/mail-translator";

export type PartnerMail =
  | { kind: "application_approved"; application: string; url: string }
  | { kind: "application_rejected"; application: string; reason: string; url: string }
  | { kind: "secret_expiring"; application: string; secret: string; days: number; url: string };

export async function renderPartnerMail(language: Locale, mail: PartnerMail): Promise<MailContent> {
  const t = await mailTranslator(language);
  const application = mail.application;
  const texts =
    mail.kind === "application_approved"
      ? {
          subject: t("partner.approved.subject", { application }),
          before: [t("partner.greeting"), t("partner.approved.intro", { application })],
          label: t("partner.approved.action"),
        }
      : mail.kind === "application_rejected"
        ? {
            subject: t("partner.rejected.subject", { application }),
            before: [t("partner.greeting"), t("partner.rejected.intro", { application }), mail.reason],
            label: t("partner.rejected.action"),
          }
        : {
            subject: t("partner.expiring.subject", { application }),
            before: [
              t("partner.greeting"),
              t("partner.expiring.intro", { application, secret: mail.secret, days: mail.days }),
            ],
            label: t("partner.expiring.action"),
          };
  return renderMail({
    lang: language,
    subject: texts.subject,
    before: texts.before,
    action: { label: texts.label, url: mail.url },
    after: [t("partner.why")],
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
