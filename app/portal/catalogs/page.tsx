import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { supplierOf } from "@/lib/rights/actor";
import { listOwnCatalogs } from "@/lib/rights/supplier-catalogs";
import { lastImportResult } from "@/lib/pages/shown-once";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { CatalogRevisions } from "./catalog-revisions";
import { CatalogExample } from "./catalog-example";
import { ImportResultNotice } from "./import-result";
import { CatalogUrlForm } from "./catalog-url-form";

export const dynamic = "force-dynamic";

const ERRORS = [
  "form_expired",
  "no_file",
  "too_large",
  "not_found",
  "already_released",
  "incomplete",
  "unknown_action",
  "no_url",
  "pull_bad_url",
  "pull_not_https",
  "pull_not_fetched",
  "pull_company_busy",
  "pull_server_busy",
  "pull_unreachable",
  "pull_redirects",
  "pull_status",
  "pull_too_large",
  "pull_timeout",
] as const;

export default async function CatalogsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const { catalogs, supplier } = await pageData(PAGES.catalogs, async (actor) => ({
    catalogs: await listOwnCatalogs(actor),
    supplier: supplierOf(actor)!,
  }));
  const t = await getTranslations("Catalogs");
  const csrf = await pageCsrfToken();
  const imported = await lastImportResult();
  const error = ERRORS.find((code) => code === single(query.error));
  // The status a server answered instead of the file (pull_status).
  const answered = single(query.status) ?? "";
  const status = /^[1-5]\d\d$/.test(answered) ? answered : "?";
  const [releasedCatalog, releasedRevision] = (single(query.released) ?? "").split(":");
  const confirming = single(query.release);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {t("supplier", { company: supplier.name, supplierId: supplier.supplierId })}
        </p>
        <p className="mt-3 text-slate-700">{t("intro")}</p>
      </div>
      {error ? <Alert>{t(`errors.${error}`, { status })}</Alert> : null}
      {releasedRevision ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t("released", { catalog: releasedCatalog, revision: releasedRevision })}
        </p>
      ) : null}
      <ImportResultNotice imported={imported} />

      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-semibold text-slate-900">{t("uploadTitle")}</h2>
        <form method="post" action={FORMS.catalogs} encType="multipart/form-data" className="mt-3 space-y-3">
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <input type="hidden" name="action" value="import" />
          <label htmlFor="catalog-file" className="block text-sm font-medium text-slate-800">
            {t("fileLabel")}
          </label>
          <input
            id="catalog-file"
            name="catalog"
            type="file"
            accept=".xml,application/xml,text/xml"
            required
            aria-describedby="catalog-file-hint"
            className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-800"
          />
          <p id="catalog-file-hint" className="text-xs text-slate-600">
            {t("fileHint")}
          </p>
          <CatalogExample />
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
            {t("importButton")}
          </button>
        </form>
        <CatalogUrlForm csrf={csrf} />
      </section>

      {catalogs.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {t("noCatalogs")}
        </p>
      ) : (
        catalogs.map((catalog) => (
          <CatalogRevisions key={catalog.catalogId} catalog={catalog} confirming={confirming} csrf={csrf} />
        ))
      )}
    </div>
  );
}
