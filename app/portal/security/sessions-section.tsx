/** The user's sign-in sessions: browser, address, when each began and was last used; ending one, or all others. */
import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { OwnSession } from "@/lib/rights/own-account";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonSecondary } from "@/app/_components/ui";
import { DataActions, DataCell, DataRow, DataTable } from "@/app/_components/data-table";

export async function SessionsSection({ sessions, csrf }: { sessions: OwnSession[]; csrf: string }) {
  const [t, format] = [await getTranslations("Security"), await getFormatter()];
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  const others = sessions.filter((session) => !session.current);
  return (
    <section aria-labelledby="sessions-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="sessions-title" className="text-lg font-semibold text-slate-900">
        {t("sessionsTitle")}
      </h2>
      <p className="text-sm text-slate-600">{t("sessionsIntro")}</p>
      <DataTable
        columns={[
          t("browser"),
          t("address"),
          t("signedIn"),
          t("lastUsed"),
          <span className="sr-only">{t("end")}</span>,
        ]}
      >
        {sessions.map((session) => (
          <DataRow key={session.id} data-session={session.current ? "current" : "other"}>
            <DataCell className="font-medium text-slate-900" label={t("browserLabel")}>
              {session.browser ?? t("unknownBrowser")}
            </DataCell>
            <DataCell label={t("addressLabel")}>{session.ipAddress ?? "—"}</DataCell>
            <DataCell label={t("signedInLabel")}>{when(session.createdAt)}</DataCell>
            <DataCell label={t("lastUsedLabel")}>{when(session.lastSeenAt)}</DataCell>
            <DataActions>
              {session.current ? (
                <span className="rounded bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900">
                  {t("thisSession")}
                </span>
              ) : (
                <form method="post" action={FORMS.account}>
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
            </DataActions>
          </DataRow>
        ))}
      </DataTable>
      {others.length > 0 ? (
        <form method="post" action={FORMS.account}>
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <button type="submit" name="action" value="end-other-sessions" className={`${buttonSecondary} sm:w-auto`}>
            {t("endOthers")}
          </button>
        </form>
      ) : (
        <p className="text-sm text-slate-600">{t("noOthers")}</p>
      )}
    </section>
  );
}
