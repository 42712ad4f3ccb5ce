import { PAGES } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import { findAuditEvents } from "@/lib/rights/operator-audit";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { DataTable, DataRow, DataCell } from "@/app/_components/data-table";
import { AuditDetails } from "./audit-details";
import { AuditFilterForm } from "./audit-filter";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const filter = {
    type: single(query.type),
    clientId: single(query.client),
    email: single(query.user),
    from: single(query.from),
    to: single(query.to),
  };
  const events = await pageData(PAGES.adminAudit, (actor) => findAuditEvents(actor, filter));
  const [t, format] = [await getTranslations("Admin"), await getFormatter()];
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-brand-800">{t("audit")}</h1>
      <AuditFilterForm filter={filter} />
      {events.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {t("noEvents")}
        </p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          <p className="px-3 pt-3 text-sm text-slate-600">{t("shown", { count: events.length })}</p>
          <DataTable columns={[t("time"), t("event"), t("user"), t("client"), t("details")]} className="mt-2">
            {events.map((event) => (
              <DataRow key={event.id} data-event-type={event.type}>
                <DataCell className="whitespace-nowrap text-slate-700">
                  {format.dateTime(event.occurredAt, { dateStyle: "short", timeStyle: "medium" })}
                </DataCell>
                <DataCell className="font-medium text-slate-900">{t(`auditEvents.${event.type}`)}</DataCell>
                <DataCell className="max-sm:break-all" label={t("userLabel")}>
                  {event.email ?? "–"}
                </DataCell>
                <DataCell className="max-sm:break-all" label={t("clientLabel")}>
                  {event.clientId ?? "–"}
                </DataCell>
                <DataCell>
                  <AuditDetails details={event.details} />
                </DataCell>
              </DataRow>
            ))}
          </DataTable>
        </div>
      )}
    </div>
  );
}
