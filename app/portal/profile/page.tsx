import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { profileOf } from "@/lib/rights/portal";
import { emailChangeNeedsPassword, pendingEmailChange } from "@/lib/rights/own-account";
import { passwordMinLength } from "@/lib/pages/password-rules";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { AccountForms } from "@/app/portal/profile/account-forms";

export const dynamic = "force-dynamic";

export default async function ProfilePage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const profile = await pageData(PAGES.profile, profileOf);
  const pending = await pageData(PAGES.profile, pendingEmailChange);
  const t = await getTranslations("Profile");
  const portal = await getTranslations("Portal");
  const csrf = await pageCsrfToken();
  const error = single(query.error);
  const form = single(query.form);
  const done = single(query.done);
  const row = (label: string, value: string) => (
    <div className="grid gap-1 py-3 sm:grid-cols-3">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-slate-900 sm:col-span-2">{value}</dd>
    </div>
  );

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
      {single(query.saved) || done === "password" || done === "password-kept" ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {done === "password"
            ? (await getTranslations("ProfileAccount"))("passwordChanged")
            : done === "password-kept"
              ? (await getTranslations("ProfileAccount"))("passwordChangedKept")
              : t("saved")}
        </p>
      ) : null}
      {error && !form ? (
        <Alert>{portal(error === "form_expired" ? "errors.form_expired" : "errors.unknown_action")}</Alert>
      ) : null}
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white px-5">
        {row(t("name"), profile.name)}
        {row(t("email"), profile.email)}
        {row(t("company"), profile.company)}
      </dl>
      <form method="post" action={FORMS.portal} className="rounded-lg border border-slate-200 bg-white p-5">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="action" value="set-language" />
        <label htmlFor="preferred_language" className="block text-sm font-medium text-slate-800">
          {t("language")}
        </label>
        <p id="preferred-language-hint" className="mt-1 text-sm text-slate-600">
          {t("languageHint")}
        </p>
        <select
          id="preferred_language"
          name="preferred_language"
          defaultValue={profile.preferredLanguage ?? ""}
          aria-describedby="preferred-language-hint"
          className="mt-2 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 sm:w-80"
        >
          <option value="">{t("browserDefault")}</option>
          {LOCALES.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {LANGUAGE_NAMES[locale]}
            </option>
          ))}
        </select>
        <button type="submit" className={`${buttonPrimary} mt-4 sm:w-auto`}>
          {t("save")}
        </button>
      </form>
      <AccountForms
        profile={profile}
        csrf={csrf}
        minLength={passwordMinLength()}
        outcome={{ form, error, minutes: Number(single(query.minutes) ?? 15) }}
        pendingEmail={pending?.newEmail ?? null}
        askPassword={await pageData(PAGES.profile, emailChangeNeedsPassword)}
      />
    </div>
  );
}
