import { getFormatter, getTranslations } from "next-intl/server";
import { supplierOf } from "@/lib/data/actor";
import { listOwnCatalogs, type RevisionSummary } from "@/lib/data/supplier-catalogs";
import { lastImportResult } from "@/lib/pages/flash-cookies";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { CATALOGS_PATH } from "@/lib/pages/paths";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

const ERRORS = ["form_expired", "no_file", "too_large", "not_found", "already_released", "incomplete", "unknown_action"] as const;
const STATE_STYLE = { stateReleased: "bg-green-100 text-green-900", stateUnreleased: "bg-amber-100 text-amber-950", stateImporting: "bg-slate-200 text-slate-800" };

const stateOf = (revision: RevisionSummary) => (revision.released ? "stateReleased" : revision.complete ? "stateUnreleased" : "stateImporting");

export default async function CatalogsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const { catalogs, supplier } = await pageData(CATALOGS_PATH, async (actor) => ({ catalogs: await listOwnCatalogs(actor), supplier: supplierOf(actor)! }));
  const [t, format] = [await getTranslations("Catalogs"), await getFormatter()];
  const csrf = await pageCsrfToken();
  const imported = await lastImportResult();
  const error = ERRORS.find((code) => code === single(query.error));
  const [releasedCatalog, releasedRevision] = (single(query.released) ?? "").split(":");
  const confirming = single(query.release);
  const day = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  const cell = "px-3 py-2 text-left align-top";

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("supplier", { supplierId: supplier.supplierId })}</p>
        <p className="mt-3 text-slate-700">{t("intro")}</p>
      </div>
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      {releasedRevision ? <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">{t("released", { catalog: releasedCatalog, revision: releasedRevision })}</p> : null}
      {imported?.ok ? (
        <p role="status" data-import-result="ok" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">{t("imported", { catalog: imported.catalogId, revision: imported.revision, articles: imported.articles })}</p>
      ) : null}
      {imported && !imported.ok ? (
        <div role="alert" data-import-result="failed" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p className="font-medium">{t("importFailed")}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {imported.errors.map((failure) => (
              <li key={`${failure.line}:${failure.message}`}><span className="font-medium">{t("line", { line: failure.line })}:</span> <span lang="en" className="font-mono text-xs">{failure.message}</span></li>
            ))}
          </ul>
          {imported.more ? <p className="mt-2">{t("moreErrors")}</p> : null}
          <p className="mt-2 text-xs text-red-800">{t("reasonsInEnglish")}</p>
        </div>
      ) : null}

      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-semibold text-slate-900">{t("uploadTitle")}</h2>
        <form method="post" action="/interaction/catalogs" encType="multipart/form-data" className="mt-3 space-y-3">
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <input type="hidden" name="action" value="import" />
          <label htmlFor="catalog-file" className="block text-sm font-medium text-slate-800">{t("fileLabel")}</label>
          <input id="catalog-file" name="catalog" type="file" accept=".xml,application/xml,text/xml" required aria-describedby="catalog-file-hint" className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-800" />
          <p id="catalog-file-hint" className="text-xs text-slate-600">{t("fileHint")}</p>
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>{t("importButton")}</button>
        </form>
      </section>

      {catalogs.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t("noCatalogs")}</p>
      ) : (
        catalogs.map((catalog) => (
          <section key={catalog.catalogId} data-catalog-id={catalog.catalogId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <h2 className="text-lg font-semibold text-slate-900">{catalog.name}</h2>
            <p className="text-sm text-slate-600"><code className="font-mono">{catalog.catalogId}</code> · <code className="font-mono">{catalog.resourceKey}</code></p>
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-sm">
                <thead className="bg-slate-50 text-slate-700">
                  <tr><th className={cell}>{t("revision")}</th><th className={cell}>{t("state")}</th><th className={`${cell} text-right`}>{t("articles")}</th><th className={cell}>{t("date")}</th><th className={cell}>{t("validity")}</th><th className={cell}>{t("comment")}</th><th className={cell} /></tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {catalog.revisions.map((revision) => {
                    const state = stateOf(revision);
                    const key = `${catalog.catalogId}:${revision.number}`;
                    return (
                      <tr key={revision.number} data-revision={revision.number}>
                        <td className={cell}>{revision.number}</td>
                        <td className={cell}><span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${STATE_STYLE[state]}`}>{t(state)}</span></td>
                        <td className={`${cell} text-right tabular-nums`}>{format.number(revision.articles)}</td>
                        <td className={`${cell} whitespace-nowrap`}>{day(revision.publishedAt)}</td>
                        <td className={`${cell} whitespace-nowrap`}>{revision.validUntil ? t("validFromTo", { from: day(revision.validFrom), until: day(revision.validUntil) }) : t("validFrom", { from: day(revision.validFrom) })}</td>
                        <td className={cell}>{revision.comment}</td>
                        <td className={`${cell} text-right`}>
                          {state === "stateUnreleased" && confirming !== key ? (
                            <form method="get" action={CATALOGS_PATH}>
                              <button type="submit" name="release" value={key} className={`${buttonSecondary} whitespace-nowrap sm:w-auto`}>{t("release")}</button>
                            </form>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {catalog.revisions.filter((revision) => `${catalog.catalogId}:${revision.number}` === confirming && stateOf(revision) === "stateUnreleased").map((revision) => (
              <form key={revision.number} method="post" action="/interaction/catalogs" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
                <input type="hidden" name={CSRF_FIELD} value={csrf} />
                <input type="hidden" name="action" value="release" />
                <input type="hidden" name="catalog_id" value={catalog.catalogId} />
                <input type="hidden" name="revision" value={revision.number} />
                <p className="text-sm text-amber-950">{t("confirmQuestion", { catalog: catalog.catalogId, revision: revision.number })}</p>
                <div className="mt-3 grid gap-3 sm:grid-cols-2">
                  <a href={CATALOGS_PATH} className={buttonSecondary}>{t("cancel")}</a>
                  <button type="submit" name="confirm" value="yes" className={buttonPrimary}>{t("confirm")}</button>
                </div>
              </form>
            ))}
          </section>
        ))
      )}
    </div>
  );
}
