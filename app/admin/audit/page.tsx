import { PAGES } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import { findAuditEvents } from "@/lib/rights/operator-audit";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { stacked } from "@/app/_components/stacked-table";
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
          <table className={`mt-2 ${stacked.table}`}>
            <thead className={stacked.head}>
              <tr>
                <th className={stacked.th}>{t("time")}</th>
                <th className={stacked.th}>{t("event")}</th>
                <th className={stacked.th}>{t("user")}</th>
                <th className={stacked.th}>{t("client")}</th>
                <th className={stacked.th}>{t("details")}</th>
              </tr>
            </thead>
            <tbody className={stacked.body}>
              {events.map((event) => (
                <tr key={event.id} data-event-type={event.type} className={stacked.row}>
                  <td className={`${stacked.cell} whitespace-nowrap text-slate-700`}>
                    {format.dateTime(event.occurredAt, { dateStyle: "short", timeStyle: "medium" })}
                  </td>
                  <td className={`${stacked.cell} font-medium text-slate-900`}>{t(`auditEvents.${event.type}`)}</td>
                  <td className={`${stacked.cell} max-sm:break-all`}>
                    <span className={stacked.label}>{t("userLabel")}</span>
                    {event.email ?? "–"}
                  </td>
                  <td className={`${stacked.cell} max-sm:break-all`}>
                    <span className={stacked.label}>{t("clientLabel")}</span>
                    {event.clientId ?? "–"}
                  </td>
                  <td className={stacked.cell}>
                    <AuditDetails details={event.details} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
