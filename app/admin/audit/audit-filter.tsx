import { getTranslations } from "next-intl/server";
import { AUDIT_EVENT_TYPES } from "@/lib/store/models/audit-event";
import type { AuditFilter } from "@/lib/rights/operator-audit";
import { buttonPrimary } from "@/app/_components/ui";

const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm";

/** The audit trail's filter: event, client, user and days, as a GET form so that a filtered view can be linked. */
export async function AuditFilterForm({ filter }: { filter: AuditFilter }) {
  const t = await getTranslations("Admin");
  const field = (name: string, label: string, value: string | undefined, type = "text") => (
    <div>
      <label htmlFor={name} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={name} name={name} type={type} defaultValue={value} className={input} />
    </div>
  );
  return (
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
              {t(`auditEvents.${type}`)}
            </option>
          ))}
        </select>
      </div>
      {field("client", t("client"), filter.clientId)}
      {field("user", t("user"), filter.email, "email")}
      {field("from", t("from"), filter.from, "date")}
      {field("to", t("to"), filter.to, "date")}
      <div className="sm:col-span-3 lg:col-span-6">
        <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
          {t("filter")}
        </button>
      </div>
    </form>
  );
}
