import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { companyPeopleView } from "@/lib/rights/company-people";
import { companySsoView } from "@/lib/rights/company-sso-settings";
import { companyClientsView } from "@/lib/rights/company-clients";
import { companyWebhooksView } from "@/lib/rights/webhook-pages";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import {
  companyClientOutcome,
  companyFormOutcome,
  companySsoOutcome,
  companyWebhookOutcome,
} from "@/lib/pages/shown-once";
import { CompanyPeopleSection } from "@/app/_components/company/company-people-section";
import { CompanySsoSection } from "@/app/_components/company/sso/company-sso-section";
import { CompanyClientsSection } from "@/app/_components/company/clients/company-clients-section";
import { CompanyWebhooksSection } from "@/app/_components/company/webhooks/company-webhooks-section";

export const dynamic = "force-dynamic";

export default async function CompanyPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  // ?webhook=<endpoint>&older=<position>: a later page of that endpoint's delivery log.
  const log = { endpointId: single(query.webhook), older: single(query.older) };
  const { people, sso, clients, webhooks } = await pageData(PAGES.company, async (actor) => ({
    people: await companyPeopleView(actor),
    sso: await companySsoView(actor),
    clients: await companyClientsView(actor),
    webhooks: await companyWebhooksView(actor, log),
  }));
  const t = await getTranslations("CompanyPeople");
  const csrf = await pageCsrfToken();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title", { company: people.company.name })}</h1>
        <p className="mt-1 text-slate-600">{t("intro")}</p>
      </div>
      <CompanyPeopleSection view={people} outcome={await companyFormOutcome()} csrf={csrf} />
      {sso ? <CompanySsoSection view={sso} outcome={await companySsoOutcome()} csrf={csrf} /> : null}
      {clients ? <CompanyClientsSection view={clients} outcome={await companyClientOutcome()} csrf={csrf} /> : null}
      {webhooks ? <CompanyWebhooksSection view={webhooks} outcome={await companyWebhookOutcome()} csrf={csrf} /> : null}
    </div>
  );
}
