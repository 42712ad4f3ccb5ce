import { redirect } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { PORTAL_PATH } from "@/lib/interaction/portal-submission";
import { pageCsrfToken, currentSession, single, type SearchParams } from "@/lib/interaction/page-helpers";
import { localizedText } from "@/lib/i18n/localized-text";
import { findClient } from "@/lib/oauth/clients/client-store";
import { listApplicationGrants } from "@/lib/portal/application-grants";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { Alert, buttonPrimary, buttonSecondary } from "../../(interaction)/_components/interaction-card";

export const dynamic = "force-dynamic";

const ERRORS = ["form_expired", "not_found", "unknown_action"] as const;

export default async function ApplicationsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const context = getServiceContext();
  const session = await currentSession();
  if (!session) redirect(`/login?${new URLSearchParams({ returnUrl: PORTAL_PATH })}`);
  const [t, locale, format] = [await getTranslations("Portal"), await getLocale(), await getFormatter()];
  const grants = await listApplicationGrants(context.db, session.user.id, locale);
  const csrf = await pageCsrfToken(context);
  const confirming = single(query.revoke);
  const revokedId = single(query.revoked);
  const revokedClient = revokedId ? await findClient(context.db, revokedId) : null;
  const revokedName = revokedClient ? localizedText(revokedClient.names, locale, revokedClient.id) : revokedId;
  const error = ERRORS.find((code) => code === single(query.error));
  const day = (date: Date) => format.dateTime(date, { dateStyle: "long" });

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("signedInAs", { name: `${session.user.givenName} ${session.user.familyName}`, email: session.user.email })}</p>
        <p className="mt-3 text-slate-700">{t("intro")}</p>
      </div>
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      {single(query.revoked) ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">{t("revoked", { client: revokedName ?? "" })}</p>
      ) : null}
      {grants.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="space-y-4">
          {grants.map((grant) => (
            <li key={grant.clientId} data-client-id={grant.clientId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <h2 className="text-lg font-semibold text-slate-900">{grant.name}</h2>
              {grant.description ? <p className="mt-1 text-sm text-slate-600">{grant.description}</p> : null}
              <p className="mt-3 text-sm font-medium text-slate-800">{t("permissions")}:</p>
              <ul className="mt-1 flex flex-wrap gap-2">
                {grant.scopes.map((scope) => (
                  <li key={scope.name} className="rounded-full bg-brand-50 px-3 py-1 text-xs font-medium text-brand-800">{scope.title}</li>
                ))}
              </ul>
              <div className="mt-3 space-y-1 text-sm text-slate-600">
                <p>{t("granted", { date: day(grant.grantedAt) })}</p>
                <p>{grant.lastUsedAt ? t("lastUsed", { date: day(grant.lastUsedAt) }) : t("neverUsed")}</p>
                {grant.offline ? <p>{t("offline")}</p> : null}
              </div>
              {confirming === grant.clientId ? (
                <form method="post" action="/interaction/portal" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
                  <input type="hidden" name={CSRF_FIELD} value={csrf} />
                  <input type="hidden" name="action" value="revoke" />
                  <input type="hidden" name="client_id" value={grant.clientId} />
                  <p className="text-sm text-amber-950">{t("confirmQuestion", { client: grant.name })}</p>
                  <div className="mt-3 grid gap-3 sm:grid-cols-2">
                    <a href={PORTAL_PATH} className={buttonSecondary}>{t("cancel")}</a>
                    <button type="submit" name="confirm" value="yes" className={buttonPrimary}>{t("confirm")}</button>
                  </div>
                </form>
              ) : (
                <form method="get" action={PORTAL_PATH} className="mt-4">
                  <button type="submit" name="revoke" value={grant.clientId} className={`${buttonSecondary} sm:w-auto`}>{t("revoke")}</button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action="/interaction/portal" className="rounded-lg border border-slate-200 bg-white p-5">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="action" value="sign-out-everywhere" />
        <p className="text-sm text-slate-700">{t("signOutEverywhereText")}</p>
        <button type="submit" className={`${buttonSecondary} mt-3 sm:w-auto`}>{t("signOutEverywhere")}</button>
      </form>
    </div>
  );
}
