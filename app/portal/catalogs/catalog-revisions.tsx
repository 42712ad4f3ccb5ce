import { FORMS, PAGES } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { CatalogSummary, RevisionSummary } from "@/lib/rights/supplier-catalogs";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";

const STATE_STYLE = {
  stateReleased: "bg-green-100 text-green-900",
  stateUnreleased: "bg-amber-100 text-amber-950",
  stateImporting: "bg-slate-200 text-slate-800",
};
const cell = "px-3 py-2 text-left align-top";

const stateOf = (revision: RevisionSummary) =>
  revision.released ? "stateReleased" : revision.complete ? "stateUnreleased" : "stateImporting";

async function RevisionRow({
  catalogId,
  revision,
  confirming,
}: {
  catalogId: string;
  revision: RevisionSummary;
  confirming: string | undefined;
}) {
  const [t, format] = [await getTranslations("Catalogs"), await getFormatter()];
  const day = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeZone: "UTC" });
  const state = stateOf(revision);
  const key = `${catalogId}:${revision.number}`;
  return (
    <tr data-revision={revision.number}>
      <td className={cell}>{revision.number}</td>
      <td className={cell}>
        <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${STATE_STYLE[state]}`}>
          {t(state)}
        </span>
      </td>
      <td className={`${cell} text-right tabular-nums`}>{format.number(revision.articles)}</td>
      <td className={`${cell} whitespace-nowrap`}>{revision.released ? day(revision.publishedAt) : "—"}</td>
      <td className={`${cell} whitespace-nowrap`}>
        {revision.validUntil
          ? t("validFromTo", { from: day(revision.validFrom), until: day(revision.validUntil) })
          : t("validFrom", { from: day(revision.validFrom) })}
      </td>
      <td className={cell}>{revision.comment}</td>
      <td className={`${cell} text-right`}>
        {state === "stateUnreleased" && confirming !== key ? (
          <form method="get" action={PAGES.catalogs}>
            <button
              type="submit"
              name="release"
              value={key}
              className={`${buttonSecondary} whitespace-nowrap sm:w-auto`}
            >
              {t("release")}
            </button>
          </form>
        ) : null}
      </td>
    </tr>
  );
}

async function ReleaseConfirmation({
  catalogId,
  revision,
  csrf,
}: {
  catalogId: string;
  revision: number;
  csrf: string;
}) {
  const t = await getTranslations("Catalogs");
  return (
    <form method="post" action={FORMS.catalogs} className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="release" />
      <input type="hidden" name="catalog_id" value={catalogId} />
      <input type="hidden" name="revision" value={revision} />
      <p className="text-sm text-amber-950">{t("confirmQuestion", { catalog: catalogId, revision })}</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <a href={PAGES.catalogs} className={buttonSecondary}>
          {t("cancel")}
        </a>
        <button type="submit" name="confirm" value="yes" className={buttonPrimary}>
          {t("confirm")}
        </button>
      </div>
    </form>
  );
}

/** One catalog with its revisions; `confirming` (catalog:revision) asks before an unreleased revision is released. */
export async function CatalogRevisions({
  catalog,
  confirming,
  csrf,
}: {
  catalog: CatalogSummary;
  confirming: string | undefined;
  csrf: string;
}) {
  const t = await getTranslations("Catalogs");
  const toConfirm = catalog.revisions.find(
    (revision) => `${catalog.catalogId}:${revision.number}` === confirming && stateOf(revision) === "stateUnreleased",
  );
  return (
    <section data-catalog-id={catalog.catalogId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">{catalog.name}</h2>
      <p className="text-sm text-slate-600">
        <code className="font-mono">{catalog.catalogId}</code> ·{" "}
        <code className="font-mono">{catalog.resourceKey}</code>
      </p>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th className={cell}>{t("revision")}</th>
              <th className={cell}>{t("state")}</th>
              <th className={`${cell} text-right`}>{t("articles")}</th>
              <th className={cell}>{t("date")}</th>
              <th className={cell}>{t("validity")}</th>
              <th className={cell}>{t("comment")}</th>
              <th className={cell} />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {catalog.revisions.map((revision) => (
              <RevisionRow
                key={revision.number}
                catalogId={catalog.catalogId}
                revision={revision}
                confirming={confirming}
              />
            ))}
          </tbody>
        </table>
      </div>
      {toConfirm ? <ReleaseConfirmation catalogId={catalog.catalogId} revision={toConfirm.number} csrf={csrf} /> : null}
    </section>
  );
}
