/** The invitation mail (Mail.invitation in messages/), in the language the invitation was made in. */
import { createTranslator } from "next-intl";
import { loadMessages, type Locale } from "@/lib/i18n/locales";
import { renderMail, type MailContent } from "@/lib/mail/mail-content";

export interface InvitationMailValues {
  language: Locale;
  companyName: string;
  /** the inviting colleague's name; absent when the operator invited */
  inviterName?: string;
  url: string;
  validDays: number;
}

type MailTranslator = ReturnType<typeof createTranslator<Awaited<ReturnType<typeof loadMessages>>, "Mail">>;

/** One translator per language for the process: a bulk import renders thousands of mails. */
const translators = new Map<Locale, Promise<MailTranslator>>();

function translatorOf(locale: Locale): Promise<MailTranslator> {
  let translator = translators.get(locale);
  if (!translator) {
    translator = loadMessages(locale).then((messages) => createTranslator({ locale, messages, namespace: "Mail" }));
    translators.set(locale, translator);
  }
  return translator;
}

export async function renderInvitationMail(values: InvitationMailValues): Promise<MailContent> {
  const t = await translatorOf(values.language);
  const company = values.companyName;
  return renderMail({
    lang: values.language,
    subject: t("invitation.subject", { company }),
    before: [
      t("invitation.greeting"),
      values.inviterName
        ? t("invitation.invitedBy", { inviter: values.inviterName, company })
        : t("invitation.invited", { company }),
    ],
    action: { label: t("invitation.action"), url: values.url },
    after: [t("invitation.expiry", { days: values.validDays }), t("invitation.ignore")],
    linkFallback: t("linkFallback"),
    signature: t("signature"),
  });
}
