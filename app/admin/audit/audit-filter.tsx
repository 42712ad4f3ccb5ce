import { getTranslations } from "next-intl/server";
import { PAGES } from "@/lib/http/paths";
import { AUDIT_EVENT_TYPES } from "@/lib/store/models/audit-event";
import type { AuditFilterField, AuditFilterInput } from "@/lib/admin/audit-query";
import { auditEventName, auditFamilyName } from "@/lib/admin/audit-labels";

const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm";
const invalidInput = "mt-1 block w-full rounded-md border-2 border-red-700 bg-white px-3 py-2 text-sm";

/** The families of event types ("user." for user.invited, user.joined …), in the order of the list of types. */
const FAMILIES = [...new Set(AUDIT_EVENT_TYPES.map((type) => type.slice(0, type.indexOf(".") + 1)))];

/**
 * The audit trail's filter: who acted (a person's email or id, or a client), the company, the event or a family of
 * events, and days; a GET form, so that a filtered view can be linked. A filter the trail cannot use is marked at its
 * field.
 */
export async function AuditFilterForm({ filter, invalid }: { filter: AuditFilterInput; invalid?: AuditFilterField }) {
  const [t, names] = [await getTranslations("Admin"), await getTranslations()];
  const eventName = (type: string) => auditEventName(names, type);
  const familyName = (prefix: string) => auditFamilyName(names, prefix.slice(0, -1));
  const marked = (name: AuditFilterField) =>
    invalid === name ? { "aria-invalid": true, "aria-describedby": `${name}-error`, className: invalidInput } : {};
  const error = (name: AuditFilterField) =>
    invalid === name ? (
      <p id={`${name}-error`} className="mt-1 text-sm text-red-800">
        {t(`auditInvalid.${name}`)}
      </p>
    ) : null;
  const field = (name: "actor" | "company" | "from" | "to", label: string, type = "text", hint?: string) => (
    <div>
      <label htmlFor={name} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={name}
        name={name}
        type={type}
        defaultValue={filter[name]}
        maxLength={200}
        placeholder={hint}
        className={input}
        {...marked(name)}
      />
      {error(name)}
    </div>
  );
  return (
    <form
      method="get"
      action={PAGES.adminAudit}
      role="search"
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6"
    >
      <div className="sm:col-span-2 lg:col-span-2">
        <label htmlFor="kind" className="text-sm font-medium text-slate-800">
          {t("event")}
        </label>
        <select id="kind" name="kind" defaultValue={filter.kind ?? ""} className={input} {...marked("kind")}>
          <option value="">{t("allTypes")}</option>
          {FAMILIES.map((family) => (
            <optgroup key={family} label={familyName(family)}>
              <option value={family}>{t("allOfFamily", { family: familyName(family) })}</option>
              {AUDIT_EVENT_TYPES.filter((type) => type.startsWith(family)).map((type) => (
                <option key={type} value={type}>
                  {eventName(type)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {error("kind")}
      </div>
      {field("actor", t("actor"), "text", t("actorHint"))}
      {field("company", t("company"), "text", t("companyHint"))}
      {field("from", t("from"), "date")}
      {field("to", t("to"), "date")}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-6">
        <button
          type="submit"
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          {t("filter")}
        </button>
        {Object.values(filter).some((value) => value?.trim()) ? (
          <a href={PAGES.adminAudit} className="text-sm text-brand-700 underline underline-offset-2">
            {t("clearFilters")}
          </a>
        ) : null}
      </div>
    </form>
  );
}
