import { getFormatter, getTranslations } from "next-intl/server";
import { detailsOf } from "@/lib/admin/audit-query";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** A detail's name for people: the page's own where it has one, else the recorded name split into words. */
const spokenName = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();

/** An audit event's details as a definition list: named in the page's language, dates and yes/no as people read them. */
export async function AuditDetails({ details }: { details: string }) {
  const [t, format] = [await getTranslations("Admin"), await getFormatter()];
  const entries = Object.entries(detailsOf(details)).filter(
    ([, value]) =>
      value !== null && value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0),
  );
  if (entries.length === 0) return <span className="text-slate-600">–</span>;
  const shown = (key: string, value: unknown): string => {
    if (typeof value === "boolean") return t(value ? "auditValues.yes" : "auditValues.no");
    if (typeof value === "string" && ISO_DATE.test(value))
      return format.dateTime(new Date(value), { dateStyle: "medium", timeStyle: "short" });
    if (typeof value === "string" && key === "reason" && t.has(`auditReasons.${value}`))
      return t(`auditReasons.${value}`);
    if (typeof value === "string" && key === "kind" && t.has(`kinds.${value}.name`)) return t(`kinds.${value}.name`);
    if (typeof value === "string" && key === "companyKind" && t.has(`companyKinds.${value}`))
      return t(`companyKinds.${value}`);
    if (Array.isArray(value)) return value.map((item) => shown(key, item)).join(", ");
    if (typeof value === "object" && value !== null)
      return Object.entries(value)
        .map(([name, inner]) => `${spokenName(name)}: ${shown(name, inner)}`)
        .join("; ");
    return String(value);
  };
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-slate-600">
            {t.has(`auditDetails.${key}`) ? t(`auditDetails.${key}`) : spokenName(key)}
          </dt>
          <dd className="min-w-0 break-words text-slate-900">{shown(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}
