import { getTranslations } from "next-intl/server";
import { PAGES } from "@/lib/http/paths";
import type { AuditFilterInput } from "@/lib/admin/audit-query";

const pagerLink =
  "inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

/** The page's address with the filters kept and the paging given (empty filters left out). */
function pageHref(filter: AuditFilterInput, paging: Record<string, string>): string {
  const query = new URLSearchParams(
    Object.entries({ ...filter, ...paging }).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())),
  );
  return query.size > 0 ? `${PAGES.adminAudit}?${query}` : PAGES.adminAudit;
}

/** Newer and older pages of the trail, keeping the filters; "newest" goes back to the first page. */
export async function AuditPager({
  filter,
  older,
  newer,
}: {
  filter: AuditFilterInput;
  older: string | null;
  newer: string | null;
}) {
  if (!older && !newer) return null;
  const t = await getTranslations("Admin");
  return (
    <nav aria-label={t("auditPaging")} className="flex flex-wrap items-center justify-between gap-2">
      <div className="flex flex-wrap gap-2">
        {newer ? (
          <>
            <a href={pageHref(filter, {})} className={pagerLink}>
              {t("newestEvents")}
            </a>
            <a href={pageHref(filter, { newer })} rel="prev" className={pagerLink}>
              ← {t("newerEvents")}
            </a>
          </>
        ) : null}
      </div>
      {older ? (
        <a href={pageHref(filter, { older })} rel="next" className={pagerLink}>
          {t("olderEvents")} →
        </a>
      ) : null}
    </nav>
  );
}
