import { PAGES, adminCompanyPage } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import { auditPageFor } from "@/lib/rights/operator-audit";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import type { AuditFilterInput } from "@/lib/admin/audit-query";
import { auditEventName } from "@/lib/admin/audit-labels";
import { DataTable, DataRow, DataCell } from "@/app/_components/data-table";
import { AuditDetails } from "./audit-details";
import { AuditFilterForm } from "./audit-filter";
import { AuditPager } from "./audit-pager";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const filter: AuditFilterInput = {
    actor: single(query.actor),
    company: single(query.company),
    kind: single(query.kind),
    from: single(query.from),
    to: single(query.to),
  };
  const paging = { older: single(query.older), newer: single(query.newer) };
  const view = await pageData(PAGES.adminAudit, (actor) => auditPageFor(actor, filter, paging));
  const [t, names, format] = [await getTranslations("Admin"), await getTranslations(), await getFormatter()];
  const when = (date: Date) => format.dateTime(date, { dateStyle: "short", timeStyle: "medium" });
  const { events } = view;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("audit")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("auditRetention", { days: view.retentionDays })}</p>
      </div>
      <AuditFilterForm filter={filter} invalid={view.invalid} />
      {events.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {view.invalid ? t("auditNothingListed") : t("noEvents")}
        </p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          <p className="px-3 pt-3 text-sm text-slate-600">
            {t("shownBetween", {
              count: events.length,
              newest: when(events[0].occurredAt),
              oldest: when(events[events.length - 1].occurredAt),
            })}
          </p>
          <DataTable
            columns={[t("time"), t("event"), t("actor"), t("client"), t("company"), t("details")]}
            className="mt-2"
          >
            {events.map((event) => (
              <DataRow key={event.id} data-event-type={event.type}>
                <DataCell className="whitespace-nowrap text-slate-700">{when(event.occurredAt)}</DataCell>
                <DataCell className="font-medium text-slate-900">{auditEventName(names, event.type)}</DataCell>
                <DataCell className="max-sm:break-all" label={t("actorLabel")}>
                  {event.email ?? (event.byClientId ? null : "–")}
                  {event.byClientId ? (
                    <span className="block text-xs text-slate-600" data-by-client-id={event.byClientId}>
                      {t("byClient", { client: event.byClientId })}
                    </span>
                  ) : null}
                </DataCell>
                <DataCell className="max-sm:break-all" label={t("clientLabel")}>
                  {event.clientId ?? "–"}
                </DataCell>
                <DataCell className="max-sm:break-all" label={t("companyLabel")}>
                  {event.companyId ? (
                    <a href={adminCompanyPage(event.companyId)} className="text-brand-700 underline underline-offset-2">
                      {event.companyId}
                    </a>
                  ) : (
                    "–"
                  )}
                </DataCell>
                <DataCell>
                  <AuditDetails details={event.details} />
                </DataCell>
              </DataRow>
            ))}
          </DataTable>
        </div>
      )}
      <AuditPager filter={filter} older={view.older} newer={view.newer} />
    </div>
  );
}
