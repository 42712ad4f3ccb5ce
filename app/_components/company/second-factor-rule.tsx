/** Whether everyone in the company must sign in with a second factor, and the form that changes it. */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { CompanyPeopleView } from "@/lib/rights/company-people";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonSecondary } from "@/app/_components/ui";

export async function SecondFactorRule({
  company,
  companyId,
  csrf,
}: {
  company: CompanyPeopleView["company"];
  /** the operator's page names the company */
  companyId?: string;
  csrf: string;
}) {
  const t = await getTranslations("CompanyPeople.secondFactor");
  const required = company.requireSecondFactor;
  // An operator's rule is the operator's: a company administrator sees it, and cannot lift it.
  const locked = required && company.secondFactorRuleByOperator && companyId === undefined;
  return (
    <section
      id="second-factor-rule"
      aria-labelledby="second-factor-rule-title"
      data-second-factor-required={required}
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id="second-factor-rule-title" className="text-lg font-semibold text-brand-800">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-700">{required ? t("on") : t("off")}</p>
      {locked ? (
        <p className="text-sm text-slate-700">{t("byOperator")}</p>
      ) : (
        <form method="post" action={FORMS.company}>
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          {companyId ? <input type="hidden" name="company_id" value={companyId} /> : null}
          <input type="hidden" name="required" value={required ? "off" : "on"} />
          <button type="submit" name="action" value="second-factor" className={`${buttonSecondary} sm:w-auto`}>
            {required ? t("stop") : t("require")}
          </button>
        </form>
      )}
    </section>
  );
}
