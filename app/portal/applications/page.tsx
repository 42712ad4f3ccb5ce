import { FORMS, PAGES } from "@/lib/http/paths";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { clientDisplayName } from "@/lib/rights/public-clients";
import { listApplicationGrants, profileOf } from "@/lib/rights/portal";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

const ERRORS = ["form_expired", "not_found", "unknown_action"] as const;

export default async function ApplicationsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const locale = await getLocale();
  const { grants, profile } = await pageData(PAGES.portal, async (actor) => ({
    grants: await listApplicationGrants(actor, locale),
    profile: profileOf(actor),
  }));
  const [t, format] = [await getTranslations("Portal"), await getFormatter()];
  const csrf = await pageCsrfToken();
  const confirming = single(query.revoke);
  const revokedId = single(query.revoked);
  const revokedName = revokedId ? await clientDisplayName(revokedId, locale) : undefined;
  const error = ERRORS.find((code) => code === single(query.error));
  const day = (date: Date) => format.dateTime(date, { dateStyle: "long" });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("signedInAs", { name: profile.name, email: profile.email })}</p>
        <p className="mt-3 text-slate-700">{t("intro")}</p>
      </div>
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      {single(query.revoked) ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t("revoked", { client: revokedName ?? "" })}
        </p>
      ) : null}
      {grants.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {t("empty")}
        </p>
      ) : (
        <ul className="space-y-4">
          {grants.map((grant) => (
            <li
              key={grant.clientId}
              data-client-id={grant.clientId}
              className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
            >
              <h2 className="text-lg font-semibold text-slate-900">{grant.name}</h2>
              {grant.description ? <p className="mt-1 text-sm text-slate-600">{grant.description}</p> : null}
              <p className="mt-3 text-sm font-medium text-slate-800">{t("permissions")}</p>
              <ul className="mt-1 flex flex-wrap gap-2">
                {grant.scopes.map((scope) => (
                  <li
                    key={scope.name}
                    className="rounded-full bg-brand-50 px-3 py-1 text-xs font-medium text-brand-800"
                  >
                    {scope.title}
                  </li>
                ))}
              </ul>
              <div className="mt-3 space-y-1 text-sm text-slate-600">
                <p>{t("granted", { date: day(grant.grantedAt) })}</p>
                <p>{grant.lastUsedAt ? t("lastUsed", { date: day(grant.lastUsedAt) }) : t("neverUsed")}</p>
                {grant.offline ? <p>{t("offline")}</p> : null}
              </div>
              {confirming === grant.clientId ? (
                <form
                  method="post"
                  action={FORMS.portal}
                  className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4"
                >
                  <input type="hidden" name={CSRF_FIELD} value={csrf} />
                  <input type="hidden" name="action" value="revoke" />
                  <input type="hidden" name="client_id" value={grant.clientId} />
                  <p className="text-sm text-amber-950">{t("confirmQuestion", { client: grant.name })}</p>
                  <div className="mt-3 grid gap-3 sm:grid-cols-2">
                    <a href={PAGES.portal} className={buttonSecondary}>
                      {t("cancel")}
                    </a>
                    <button type="submit" name="confirm" value="yes" className={buttonPrimary}>
                      {t("confirm")}
                    </button>
                  </div>
                </form>
              ) : (
                <form method="get" action={PAGES.portal} className="mt-4">
                  <button type="submit" name="revoke" value={grant.clientId} className={`${buttonSecondary} sm:w-auto`}>
                    {t("revoke")}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action={FORMS.portal} className="rounded-lg border border-slate-200 bg-white p-5">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="action" value="sign-out-everywhere" />
        <p className="text-sm text-slate-700">{t("signOutEverywhereText")}</p>
        <button type="submit" className={`${buttonSecondary} mt-3 sm:w-auto`}>
          {t("signOutEverywhere")}
        </button>
      </form>
    </div>
  );
}
