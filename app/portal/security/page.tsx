import { getFormatter, getTranslations } from "next-intl/server";
import { ownSessions } from "@/lib/rights/own-account";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { SECURITY_PATH } from "@/lib/pages/paths";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonSecondary } from "@/app/_components/ui";
import { stacked } from "@/app/_components/stacked-table";

export const dynamic = "force-dynamic";

const ERRORS = ["not_found", "form_expired"] as const;

export default async function SecurityPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const sessions = await pageData(SECURITY_PATH, ownSessions);
  const [t, format, csrf] = [await getTranslations("Security"), await getFormatter(), await pageCsrfToken()];
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  const error = ERRORS.find((code) => code === single(query.error));
  const ended = Number(single(query.ended) ?? -1);
  const others = sessions.filter((session) => !session.current);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
      {ended >= 0 ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t("ended", { count: ended })}
        </p>
      ) : null}
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      <section aria-labelledby="sessions-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="sessions-title" className="text-lg font-semibold text-slate-900">
          {t("sessionsTitle")}
        </h2>
        <p className="text-sm text-slate-600">{t("sessionsIntro")}</p>
        <table className={stacked.table}>
          <thead className={stacked.head}>
            <tr>
              <th className={stacked.th}>{t("browser")}</th>
              <th className={stacked.th}>{t("address")}</th>
              <th className={stacked.th}>{t("signedIn")}</th>
              <th className={stacked.th}>{t("lastUsed")}</th>
              <th className={stacked.th}>
                <span className="sr-only">{t("end")}</span>
              </th>
            </tr>
          </thead>
          <tbody className={stacked.body}>
            {sessions.map((session) => (
              <tr key={session.id} className={stacked.row} data-session={session.current ? "current" : "other"}>
                <td className={`${stacked.cell} font-medium text-slate-900`}>
                  <span className={stacked.label}>{t("browser")}:</span>
                  {session.browser ?? t("unknownBrowser")}
                </td>
                <td className={stacked.cell}>
                  <span className={stacked.label}>{t("address")}:</span>
                  {session.ipAddress ?? "—"}
                </td>
                <td className={stacked.cell}>
                  <span className={stacked.label}>{t("signedIn")}:</span>
                  {when(session.createdAt)}
                </td>
                <td className={stacked.cell}>
                  <span className={stacked.label}>{t("lastUsed")}:</span>
                  {when(session.lastSeenAt)}
                </td>
                <td className={stacked.cell}>
                  {session.current ? (
                    <span className="rounded bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900">
                      {t("thisSession")}
                    </span>
                  ) : (
                    <form method="post" action="/interaction/account">
                      <input type="hidden" name={CSRF_FIELD} value={csrf} />
                      <input type="hidden" name="session_id" value={session.id} />
                      <button
                        type="submit"
                        name="action"
                        value="end-session"
                        aria-label={t("endNamed", {
                          browser: session.browser ?? t("unknownBrowser"),
                          lastUsed: when(session.lastSeenAt),
                        })}
                        className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50"
                      >
                        {t("end")}
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {others.length > 0 ? (
          <form method="post" action="/interaction/account">
            <input type="hidden" name={CSRF_FIELD} value={csrf} />
            <button type="submit" name="action" value="end-other-sessions" className={`${buttonSecondary} sm:w-auto`}>
              {t("endOthers")}
            </button>
          </form>
        ) : (
          <p className="text-sm text-slate-600">{t("noOthers")}</p>
        )}
      </section>
    </div>
  );
}
