/** The invitation mail (Mail.invitation in messages/), in the language the invitation was made in. */
import type { Locale } from "@/lib/i18n/locales";
import { mailTranslator } from "@/lib/mail/mail-translator";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";

export interface InvitationMailValues {
  language: Locale;
  companyName: string;
  /** the inviting colleague's name; absent when the operator invited */
  inviterName?: string;
  url: string;
  validDays: number;
}

/**
 * A name fit to stand in OptiGate's own sentence: letters, spaces and the marks names use, a dot only after an
 * initial ("J. Smith", never "shop.example"). Anything else (an address, a URL, bidirectional controls) is left
 * out, and the mail says only that the company invites.
 */
const PLAIN_NAME = /^(?!.*\.\p{L})\p{L}[\p{L}\p{M} '’.-]{0,199}$/u;

export async function renderInvitationMail(values: InvitationMailValues): Promise<MailContent> {
  const t = await mailTranslator(values.language);
  const company = values.companyName;
  return renderMail({
    lang: values.language,
    subject: t("invitation.subject", { company }),
    before: [
      t("invitation.greeting"),
      values.inviterName && PLAIN_NAME.test(values.inviterName)
        ? t("invitation.invitedBy", { inviter: values.inviterName, company })
        : t("invitation.invited", { company }),
    ],
    action: { label: t("invitation.action"), url: values.url },
    after: [t("invitation.expiry", { days: values.validDays }), t("invitation.ignore")],
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
