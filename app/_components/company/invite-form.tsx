import { FORMS } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import type { CompanyFormOutcome } from "@/lib/forms/company-submission";
import { fieldAria, FieldError, invalidInput } from "@/app/_components/labelled-field";
import { Alert } from "@/app/_components/ui";

/** A text input or select of the company page's forms. */
export const fieldInput = `mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 ${invalidInput}`;

/** Roles a company's people may have: developers only where the company writes software. */
export const rolesOf = (companyKind: string) =>
  companyKind === "software_vendor" ? (["user", "admin", "developer"] as const) : (["user", "admin"] as const);

/** Inviting a colleague: email, role, language; a refusal comes back at its field with what was typed. */
export async function InviteForm({
  companyId,
  companyKind,
  csrf,
  refused,
}: {
  companyId?: string;
  companyKind: string;
  csrf: string;
  refused?: CompanyFormOutcome;
}) {
  const [t, locale] = [await getTranslations("CompanyPeople"), await getLocale()];
  const problem = refused?.problem ? t(`problems.${refused.problem}` as "problems.invalid_email") : null;
  const at = (field: string) => (refused?.field === field ? problem : null);
  return (
    <form
      id="people-form"
      method="post"
      action={FORMS.company}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 className="text-lg font-semibold text-brand-800">{t("inviteTitle")}</h2>
      <p className="text-sm text-slate-600">{t("inviteHint")}</p>
      {problem && !refused?.field ? <Alert>{problem}</Alert> : null}
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="invite" />
      {companyId ? <input type="hidden" name="company_id" value={companyId} /> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="sm:col-span-3">
          <label htmlFor="invite-email" className="block text-sm font-medium text-slate-800">
            {t("email")}
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            defaultValue={refused?.action === "invite" ? refused.email : undefined}
            className={fieldInput}
            {...fieldAria("invite-email", false, at("email"))}
          />
          <FieldError id="invite-email" error={at("email")} />
        </div>
        <div className="sm:col-span-2">
          <label htmlFor="invite-role" className="block text-sm font-medium text-slate-800">
            {t("role")}
          </label>
          <select id="invite-role" name="role" defaultValue={refused?.role ?? "user"} className={fieldInput}>
            {rolesOf(companyKind).map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)} – {t(`roleHints.${role}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="invite-language" className="block text-sm font-medium text-slate-800">
            {t("language")}
          </label>
          <select
            id="invite-language"
            name="language"
            defaultValue={refused?.language ?? locale}
            className={fieldInput}
          >
            {LOCALES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button
        type="submit"
        className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
      >
        {t("invite")}
      </button>
    </form>
  );
}
