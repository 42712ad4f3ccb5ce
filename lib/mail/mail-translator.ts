/** The texts of OptiGate's mail (Mail in messages/), one translator per language for the process. */
import { createTranslator } from "next-intl";
import { loadMessages, type Locale } from "@/lib/i18n/locales";

export type MailTranslator = ReturnType<typeof createTranslator<Awaited<ReturnType<typeof loadMessages>>, "Mail">>;

/** A bulk import renders thousands of mails: each language's messages are loaded once. */
const translators = new Map<Locale, Promise<MailTranslator>>();

export function mailTranslator(locale: Locale): Promise<MailTranslator> {
  let translator = translators.get(locale);
  if (!translator) {
    translator = loadMessages(locale).then((messages) => createTranslator({ locale, messages, namespace: "Mail" }));
    translators.set(locale, translator);
  }
  return translator;
}
