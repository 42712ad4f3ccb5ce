/** The platform scopes a software vendor's applications may ask for, as the operator allows them. */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { ScopeDefinition } from "@/lib/oauth/scopes";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary } from "@/app/_components/ui";
import { ScopeCheckboxes } from "@/app/admin/clients/scope-choice";

export async function PartnerScopes({
  companyId,
  scopes,
  csrf,
}: {
  companyId: string;
  scopes: { allowed: string[]; offered: ScopeDefinition[] };
  csrf: string;
}) {
  const t = await getTranslations("AdminCompanies");
  return (
    <section id="partner-scopes" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold text-brand-800">{t("partnerScopesTitle")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("partnerScopesText")}</p>
      <form method="post" action={FORMS.companies} className="mt-3 space-y-3">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="company_id" value={companyId} />
        <fieldset>
          <legend className="sr-only">{t("partnerScopesTitle")}</legend>
          <ScopeCheckboxes name="partner_scope" scopes={scopes.offered} checked={scopes.allowed} />
        </fieldset>
        <button type="submit" name="action" value="partner-scopes" className={`${buttonPrimary} sm:w-auto`}>
          {t("partnerScopesSave")}
        </button>
      </form>
    </section>
  );
}
