/** Whether the company's people hear of sign-ins from browsers new to their accounts, and the form that changes it. */
import { getTranslations } from "next-intl/server";
import type { CompanyPeopleView } from "@/lib/rights/company-people";
import { CompanySwitch } from "@/app/_components/company/company-switch";

export async function SignInNoticeRule({
  company,
  companyId,
  csrf,
}: {
  company: CompanyPeopleView["company"];
  /** the operator's page names the company */
  companyId?: string;
  csrf: string;
}) {
  const t = await getTranslations("CompanyPeople.signInNotices");
  const on = company.signInNotices;
  const texts = { title: t("title"), state: on ? t("on") : t("off"), button: on ? t("switchOff") : t("switchOn") };
  return (
    <CompanySwitch
      section="sign-in-notices"
      on={on}
      action="sign-in-notices"
      field="notices"
      texts={texts}
      companyId={companyId}
      csrf={csrf}
    />
  );
}
