import { getFormatter, getTranslations } from "next-intl/server";
import { auditDetailLines } from "@/lib/admin/audit-detail-lines";
import { detailsOf } from "@/lib/admin/audit-query";

/** An audit event's details as a definition list, named and written in the page's language. */
export async function AuditDetails({ details }: { details: string }) {
  const [t, format] = [await getTranslations(), await getFormatter()];
  const lines = auditDetailLines(detailsOf(details), t, {
    dateTime: (date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" }),
    number: (value) => format.number(value),
  });
  if (lines.length === 0) return <span className="text-slate-600">–</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
      {lines.map(({ key, name, value }) => (
        <div key={key} className="contents" data-detail={key}>
          <dt className="text-slate-600">{name}</dt>
          <dd className="min-w-0 break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
