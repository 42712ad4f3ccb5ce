import { getFormatter, getTranslations } from "next-intl/server";
import { AUDIT_EVENT_TYPES } from "@/lib/audit/audit-event-types";
import { findAuditEvents } from "@/lib/rights/operator-audit";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { buttonPrimary } from "@/app/_components/ui";

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
  const events = await pageData("/admin/audit", (actor) => findAuditEvents(actor, filter));
  const [t, format] = [await getTranslations("Admin"), await getFormatter()];
  const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm";
  const cell = "px-3 py-2 text-left align-top";
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-brand-800">{t("audit")}</h1>
      <form
        method="get"
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
      >
        <div className="sm:col-span-1 lg:col-span-2">
          <label htmlFor="type" className="text-sm font-medium text-slate-800">
            {t("event")}
          </label>
          <select id="type" name="type" defaultValue={filter.type ?? ""} className={input}>
            <option value="">{t("allTypes")}</option>
            {AUDIT_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="client" className="text-sm font-medium text-slate-800">
            {t("client")}
          </label>
          <input id="client" name="client" defaultValue={filter.clientId} className={input} />
        </div>
        <div>
          <label htmlFor="user" className="text-sm font-medium text-slate-800">
            {t("user")}
          </label>
          <input id="user" name="user" type="email" defaultValue={filter.email} className={input} />
        </div>
        <div>
          <label htmlFor="from" className="text-sm font-medium text-slate-800">
            {t("from")}
          </label>
          <input id="from" name="from" type="date" defaultValue={filter.from} className={input} />
        </div>
        <div>
          <label htmlFor="to" className="text-sm font-medium text-slate-800">
            {t("to")}
          </label>
          <input id="to" name="to" type="date" defaultValue={filter.to} className={input} />
        </div>
        <div className="sm:col-span-3 lg:col-span-6">
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
            {t("filter")}
          </button>
        </div>
      </form>
      {events.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {t("noEvents")}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <p className="px-3 pt-3 text-sm text-slate-600">{t("shown", { count: events.length })}</p>
          <table className="mt-2 w-full text-sm">
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th className={cell}>{t("time")}</th>
                <th className={cell}>{t("event")}</th>
                <th className={cell}>{t("user")}</th>
                <th className={cell}>{t("client")}</th>
                <th className={cell}>{t("details")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {events.map((event) => (
                <tr key={event.id} data-event-type={event.type}>
                  <td className={`${cell} whitespace-nowrap`}>
                    {format.dateTime(event.occurredAt, { dateStyle: "short", timeStyle: "medium" })}
                  </td>
                  <td className={cell}>{event.type}</td>
                  <td className={cell}>{event.email ?? "–"}</td>
                  <td className={cell}>{event.clientId ?? "–"}</td>
                  <td className={`${cell} break-all font-mono text-xs text-slate-700`}>{event.details}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
