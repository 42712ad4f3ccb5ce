/** The mail to a software vendor's developers (Mail.partner in messages/): a review's outcome, a secret expiring soon. */
import type { Locale } from "@/lib/i18n/locales";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";
import { mailTranslator } from "@/lib/mail/mail-translator";

export type PartnerMail =
  | { kind: "application_approved" | "application_change_approved"; application: string; url: string }
  | { kind: "application_rejected"; application: string; reason: string; url: string }
  | { kind: "secret_expiring"; application: string; secret: string; days: number; url: string };

type Translate = Awaited<ReturnType<typeof mailTranslator>>;

function textsOf(t: Translate, mail: PartnerMail): { subject: string; before: string[]; label: string } {
  const { application } = mail;
  switch (mail.kind) {
    case "application_approved":
    case "application_change_approved": {
      const key = mail.kind === "application_approved" ? "approved" : "changeApproved";
      return {
        subject: t(`partner.${key}.subject`, { application }),
        before: [t("partner.greeting"), t(`partner.${key}.intro`, { application })],
        label: t(`partner.${key}.action`),
      };
    }
    case "application_rejected":
      return {
        subject: t("partner.rejected.subject", { application }),
        before: [t("partner.greeting"), t("partner.rejected.intro", { application }), mail.reason],
        label: t("partner.rejected.action"),
      };
    case "secret_expiring":
      return {
        subject: t("partner.expiring.subject", { application }),
        before: [
          t("partner.greeting"),
          t("partner.expiring.intro", { application, secret: mail.secret, days: mail.days }),
        ],
        label: t("partner.expiring.action"),
      };
  }
}

export async function renderPartnerMail(language: Locale, mail: PartnerMail): Promise<MailContent> {
  const t = await mailTranslator(language);
  const texts = textsOf(t, mail);
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
