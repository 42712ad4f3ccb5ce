import { FORMS, PAGES } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { CatalogSummary, RevisionSummary } from "@/lib/rights/supplier-catalogs";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";
import { DataActions, DataCell, DataRow, DataTable, Identifier } from "@/app/_components/data-table";

const STATE_STYLE = {
  stateReleased: "bg-green-100 text-green-900",
  stateUnreleased: "bg-amber-100 text-amber-950",
  stateImporting: "bg-slate-200 text-slate-800",
};

/** The release's question, which the page scrolls to: on a phone it lies far below the button that asks it. */
const CONFIRMATION = "confirm-release";

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
    <DataRow data-revision={revision.number}>
      <DataCell label={t("revisionLabel")}>{revision.number}</DataCell>
      <DataCell label={t("stateLabel")}>
        <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${STATE_STYLE[state]}`}>
          {t(state)}
        </span>
      </DataCell>
      <DataCell label={t("articlesLabel")} className="tabular-nums">
        {format.number(revision.articles)}
      </DataCell>
      <DataCell label={t("dateLabel")} className="sm:whitespace-nowrap">
        {revision.released ? day(revision.publishedAt) : "—"}
      </DataCell>
      <DataCell label={t("validityLabel")} className="sm:whitespace-nowrap">
        {revision.validUntil
          ? t("validFromTo", { from: day(revision.validFrom), until: day(revision.validUntil) })
          : t("validFrom", { from: day(revision.validFrom) })}
      </DataCell>
      <DataCell label={t("commentLabel")}>{revision.comment}</DataCell>
      <DataActions>
        {state === "stateUnreleased" && confirming !== key ? (
          <form method="get" action={`${PAGES.catalogs}#${CONFIRMATION}`} className="w-full sm:w-auto">
            <button
              type="submit"
              name="release"
              value={key}
              aria-label={t("releaseNamed", { catalog: catalogId, revision: revision.number })}
              className={`${buttonSecondary} whitespace-nowrap sm:w-auto`}
            >
              {t("release")}
            </button>
          </form>
        ) : null}
      </DataActions>
    </DataRow>
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
    <form
      id={CONFIRMATION}
      method="post"
      action={FORMS.catalogs}
      className="mt-4 scroll-mt-4 rounded-md border border-amber-300 bg-amber-50 p-4"
    >
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
        <Identifier value={catalog.catalogId} className="font-mono" /> ·{" "}
        <Identifier value={catalog.resourceKey} className="font-mono" />
      </p>
      <DataTable
        className="mt-3"
        columns={[
          t("revision"),
          t("state"),
          t("articles"),
          t("date"),
          t("validity"),
          t("comment"),
          <span className="sr-only">{t("release")}</span>,
        ]}
      >
        {catalog.revisions.map((revision) => (
          <RevisionRow
            key={revision.number}
            catalogId={catalog.catalogId}
            revision={revision}
            confirming={confirming}
          />
        ))}
      </DataTable>
      {toConfirm ? <ReleaseConfirmation catalogId={catalog.catalogId} revision={toConfirm.number} csrf={csrf} /> : null}
    </section>
  );
}
