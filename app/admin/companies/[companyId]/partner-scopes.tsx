/** The platform scopes a software vendor's applications may ask for, as the operator allows them. */
import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import type { ScopeDefinition } from "@/lib/oauth/scopes";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary } from "@/app/_components/ui";

export async function PartnerScopes({
  companyId,
  scopes,
  csrf,
}: {
  companyId: string;
  scopes: { allowed: string[]; offered: ScopeDefinition[] };
  csrf: string;
}) {
  const [t, locale] = [await getTranslations("AdminCompanies"), await getLocale()];
  return (
    <section id="partner-scopes" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold text-brand-800">{t("partnerScopesTitle")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("partnerScopesText")}</p>
      <form method="post" action="/interaction/companies" className="mt-3 space-y-3">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="company_id" value={companyId} />
        <fieldset>
          <legend className="sr-only">{t("partnerScopesTitle")}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {scopes.offered.map((scope) => (
              <label key={scope.name} className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="partner_scope"
                  value={scope.name}
                  defaultChecked={scopes.allowed.includes(scope.name)}
                  className="mt-0.5 h-4 w-4"
                />
                <span>
                  {localizedText(scope.displayNames, locale, scope.name)}{" "}
                  <span className="break-all font-mono text-xs text-slate-600">{scope.name}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" name="action" value="partner-scopes" className={`${buttonPrimary} sm:w-auto`}>
          {t("partnerScopesSave")}
        </button>
      </form>
    </section>
  );
}
