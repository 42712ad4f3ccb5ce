import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { companyPeopleView } from "@/lib/rights/company-people";
import { companySsoView } from "@/lib/rights/company-sso-settings";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { companyFormOutcome, companySsoOutcome } from "@/lib/pages/shown-once";
import { CompanyPeopleSection } from "@/app/_components/company/company-people-section";
import { CompanySsoSection } from "@/app/_components/company/sso/company-sso-section";

export const dynamic = "force-dynamic";

export default async function CompanyPage() {
  const { people, sso } = await pageData(PAGES.company, async (actor) => ({
    people: await companyPeopleView(actor),
    sso: await companySsoView(actor),
  }));
  const t = await getTranslations("CompanyPeople");
  const csrf = await pageCsrfToken();
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title", { company: people.company.name })}</h1>
        <p className="mt-1 text-slate-600">{t("intro")}</p>
      </div>
      <CompanyPeopleSection view={people} outcome={await companyFormOutcome()} csrf={csrf} />
      {sso ? <CompanySsoSection view={sso} outcome={await companySsoOutcome()} csrf={csrf} /> : null}
    </div>
  );
}
