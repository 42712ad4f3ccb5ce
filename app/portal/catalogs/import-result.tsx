import { getTranslations } from "next-intl/server";
import type { ShownImportResult } from "@/lib/forms/catalog-submission";
import { problemText } from "@/lib/catalog/publishing/catalog-problems";

/** What the last import did: its revision and article count, or the reasons it was refused, line by line. */
export async function ImportResultNotice({ imported }: { imported: ShownImportResult | undefined }) {
  if (!imported) return null;
  const [t, problems] = [await getTranslations("Catalogs"), await getTranslations("CatalogProblems")];
  if (imported.ok) {
    return (
      <p
        role="status"
        data-import-result="ok"
        className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
      >
        {t("imported", { catalog: imported.catalogId, revision: imported.revision, articles: imported.articles })}
      </p>
    );
  }
  return (
    <div
      role="alert"
      data-import-result="failed"
      className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <p className="font-medium">{t("importFailed")}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {imported.errors.map((failure, index) => (
          <li key={index}>
            <span className="font-medium">{t("line", { line: failure.line })}</span>{" "}
            {problemText(failure.problem, (key, values) => problems(key, values))}
          </li>
        ))}
      </ul>
      {imported.more > 0 ? <p className="mt-2">{t("moreErrors", { count: imported.more })}</p> : null}
    </div>
  );
}
