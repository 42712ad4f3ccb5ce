import { FORMS } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";
import { buttonPrimary } from "@/app/_components/ui";
import { invalidInput, LabelledField } from "@/app/_components/labelled-field";

const input = `block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm ${invalidInput}`;

/** A failed message whose text was kept: queued again with one button (the same rule as the management API's retry). */
export async function RetryForm({ csrf, messageId }: { csrf: string; messageId: string }) {
  const t = await getTranslations("AdminOutbox");
  return (
    <form method="post" action={FORMS.admin} className="mt-1">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="outbox-retry" />
      <input type="hidden" name="message_id" value={messageId} />
      <button type="submit" className="rounded border border-slate-300 px-2 py-1 text-xs font-semibold text-slate-800">
        {t("retry")}
      </button>
    </form>
  );
}

/** A test mail to an address, in a language: queued like any mail, so the list shows how it fares. */
export async function TestMailForm({
  csrf,
  typed,
  errorAt,
}: {
  csrf: string;
  typed?: string;
  errorAt: (id: string) => ReactNode;
}) {
  const t = await getTranslations("AdminOutbox");
  return (
    <section aria-labelledby="test-mail-title" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="test-mail-title" className="text-lg font-semibold text-slate-900">
        {t("testTitle")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t("testIntro")}</p>
      <form method="post" action={FORMS.admin} className="mt-3 grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="action" value="outbox-test-mail" />
        <LabelledField id="test-to" label={t("testTo")} error={errorAt("test-to")}>
          {(aria) => (
            <input id="test-to" name="to" type="email" required defaultValue={typed} className={input} {...aria} />
          )}
        </LabelledField>
        <LabelledField id="test-language" label={t("testLanguage")} error={errorAt("test-language")}>
          {(aria) => (
            <select id="test-language" name="language" className={input} {...aria}>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {LANGUAGE_NAMES[locale]}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
          {t("testSend")}
        </button>
      </form>
    </section>
  );
}
