/** Whether everyone in the company must sign in with a second factor, and the form that changes it. */
import { getTranslations } from "next-intl/server";
import type { CompanyPeopleView } from "@/lib/rights/company-people";
import { CompanySwitch } from "@/app/_components/company/company-switch";

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
  const texts = {
    title: t("title"),
    state: required ? t("on") : t("off"),
    button: required ? t("stop") : t("require"),
    locked: t("byOperator"),
  };
  return (
    <CompanySwitch
      section="second-factor-rule"
      on={required}
      action="second-factor"
      field="required"
      texts={texts}
      locked={locked}
      companyId={companyId}
      csrf={csrf}
    />
  );
}
