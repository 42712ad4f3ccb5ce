import { PAGES, adminCompanyPage } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { listCompaniesFor } from "@/lib/rights/operator-companies";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { refusedCompanyForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { DataTable, DataRow, DataCell, Identifier } from "@/app/_components/data-table";
import { CompanyForm } from "./company-form";

export const dynamic = "force-dynamic";

export default async function AdminCompaniesPage({ searchParams }: { searchParams: SearchParams }) {
  const search = single((await searchParams).q)?.slice(0, 100);
  const companies = await pageData(PAGES.adminCompanies, (actor) => listCompaniesFor(actor, search));
  const [t, admin] = [await getTranslations("AdminCompanies"), await getTranslations("Admin")];
  const refused = await refusedCompanyForm();
  return (
    <div className="space-y-8">
      <section className="space-y-4">
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <form method="get" action={PAGES.adminCompanies} role="search" className="flex flex-wrap items-end gap-2">
          <div className="min-w-64 flex-1">
            <label htmlFor="company-search" className="block text-sm font-medium text-slate-800">
              {t("search")}
            </label>
            <input
              id="company-search"
              name="q"
              type="search"
              defaultValue={search}
              className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm"
            />
          </div>
          <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white">
            {t("searchButton")}
          </button>
          {search ? (
            <a href={PAGES.adminCompanies} className="px-2 py-2 text-sm text-brand-700 underline">
              {t("showAll")}
            </a>
          ) : null}
        </form>
        {companies.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            {t("noMatch", { search: search ?? "" })}
          </p>
        ) : (
          <div className="rounded-lg border border-slate-200 bg-white">
            <DataTable columns={[t("name"), t("kind"), t("country"), t("status")]}>
              {companies.map((company) => (
                <DataRow key={company.id} data-company-id={company.id}>
                  <DataCell className="break-words">
                    <a
                      href={adminCompanyPage(company.id)}
                      className="font-medium text-brand-700 underline underline-offset-2"
                    >
                      {company.name}
                    </a>
                    <Identifier value={company.id} className="block text-xs text-slate-600" />
                  </DataCell>
                  <DataCell label={t("kindLabel")}>
                    {admin(`companyKinds.${company.kind}` as "companyKinds.supplier")}
                  </DataCell>
                  <DataCell label={t("countryLabel")}>{company.country ?? "–"}</DataCell>
                  <DataCell label={t("statusLabel")}>{company.active ? t("active") : t("inactive")}</DataCell>
                </DataRow>
              ))}
            </DataTable>
          </div>
        )}
      </section>
      <CompanyForm refused={refused?.companyId ? undefined : refused} csrf={await pageCsrfToken()} />
    </div>
  );
}
