/** The platform scopes a software vendor's applications may ask for, and their sandbox, as the operator allows them. */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { ScopeDefinition } from "@/lib/oauth/scopes";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";
import { ScopeCheckboxes } from "@/app/admin/clients/scope-choice";

export async function PartnerScopes({
  companyId,
  scopes,
  csrf,
}: {
  companyId: string;
  scopes: { allowed: string[]; offered: ScopeDefinition[]; sandbox: boolean };
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
      <form method="post" action={FORMS.companies} className="mt-5 space-y-2 border-t border-slate-200 pt-4">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="company_id" value={companyId} />
        <h3 className="font-medium text-slate-900">{t("sandboxTitle")}</h3>
        <p className="text-sm text-slate-600" data-sandbox={scopes.sandbox ? "on" : "off"}>
          {t(scopes.sandbox ? "sandboxOn" : "sandboxOff")}
        </p>
        <button
          type="submit"
          name="action"
          value={scopes.sandbox ? "sandbox-off" : "sandbox-on"}
          className={`${buttonSecondary} sm:w-auto`}
        >
          {t(scopes.sandbox ? "sandboxTurnOff" : "sandboxTurnOn")}
        </button>
      </form>
    </section>
  );
}
