import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { companyPeopleView } from "@/lib/rights/company-people";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { companyFormOutcome } from "@/lib/pages/shown-once";
import { CompanyPeopleSection } from "@/app/_components/company/company-people-section";

export const dynamic = "force-dynamic";

export default async function CompanyPage() {
  const view = await pageData(PAGES.company, (actor) => companyPeopleView(actor));
  const t = await getTranslations("CompanyPeople");
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title", { company: view.company.name })}</h1>
        <p className="mt-1 text-slate-600">{t("intro")}</p>
      </div>
      <CompanyPeopleSection view={view} outcome={await companyFormOutcome()} csrf={await pageCsrfToken()} />
    </div>
  );
}
