import { FORMS, PAGES, adminCompanyPage } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { companyFor, partnerScopesFor } from "@/lib/rights/operator-companies";
import { companyPeopleView } from "@/lib/rights/company-people";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { decodedSegment } from "@/lib/pages/path-segments";
import { companyFormOutcome, refusedCompanyForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { CompanyPeopleSection } from "@/app/_components/company/company-people-section";
import { CompanyForm } from "../company-form";
import { PartnerScopes } from "./partner-scopes";

export const dynamic = "force-dynamic";

const NOTICES = ["saved", "activated", "deactivated", "scopesSaved", "sandboxSaved"] as const;

export default async function AdminCompanyPage({
  params,
  searchParams,
}: {
  params: Promise<{ companyId: string }>;
  searchParams: SearchParams;
}) {
  const companyId = decodedSegment((await params).companyId);
  const query = await searchParams;
  if (companyId === undefined) notFound();
  const path = adminCompanyPage(companyId);
  const company = await pageData(path, (actor) => companyFor(actor, companyId));
  if (!company) notFound();
  const view = await pageData(path, (actor) => companyPeopleView(actor, companyId));
  const partnerScopes = await pageData(path, (actor) => partnerScopesFor(actor, companyId));
  const [t, admin, format] = [
    await getTranslations("AdminCompanies"),
    await getTranslations("Admin"),
    await getFormatter(),
  ];
  const refused = await refusedCompanyForm();
  const notice = NOTICES.find((key) => single(query[key]));
  const csrf = await pageCsrfToken();
  return (
    <div className="space-y-8">
      <div>
        <a href={PAGES.adminCompanies} className="text-sm text-brand-700 underline">
          {t("back")}
        </a>
        <h1 className="mt-2 text-2xl font-semibold text-brand-800">{company.name}</h1>
        <p className="text-sm text-slate-600">
          {admin(`companyKinds.${company.kind}` as "companyKinds.supplier")} · {company.id} ·{" "}
          {company.active ? t("active") : t("inactive")} ·{" "}
          {t("created", { date: format.dateTime(new Date(company.created_at), { dateStyle: "medium" }) })}
        </p>
        {notice ? (
          <p
            role="status"
            className="mt-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
          >
            {t(notice)}
          </p>
        ) : null}
      </div>
      <CompanyPeopleSection view={view} outcome={await companyFormOutcome()} csrf={csrf} operator />
      {partnerScopes ? <PartnerScopes companyId={company.id} scopes={partnerScopes} csrf={csrf} /> : null}
      <CompanyForm company={company} refused={refused?.companyId === company.id ? refused : undefined} csrf={csrf} />
      {/* The operator company is never deactivated (lib/admin/company-registry.ts): its people run the platform. */}
      {company.kind === "operator" && company.active ? null : (
        <section className="rounded-lg border border-slate-200 bg-white p-5">
          <h2 className="text-lg font-semibold text-brand-800">{t("deactivateTitle")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("deactivateText")}</p>
          <form method="post" action={FORMS.companies} className="mt-3">
            <input type="hidden" name={CSRF_FIELD} value={csrf} />
            <input type="hidden" name="company_id" value={company.id} />
            {company.active ? (
              <details>
                <summary className="cursor-pointer text-sm font-semibold text-red-800">{t("deactivate")}</summary>
                <button
                  type="submit"
                  name="action"
                  value="deactivate"
                  className="mt-2 rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800"
                >
                  {t("confirmDeactivate", { name: company.name })}
                </button>
              </details>
            ) : (
              <button
                type="submit"
                name="action"
                value="activate"
                className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
              >
                {t("activate")}
              </button>
            )}
          </form>
        </section>
      )}
    </div>
  );
}
