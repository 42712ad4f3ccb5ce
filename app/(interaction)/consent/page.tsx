import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { authorizationForPage, consentView } from "@/lib/interaction/consent-view";
import { pageCsrfToken, currentSession, single, type SearchParams } from "@/lib/interaction/page-helpers";
import { authorizeParametersOf, safeLocalPath } from "@/lib/interaction/return-url";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { Alert, buttonPrimary, buttonSecondary, InteractionCard } from "../_components/interaction-card";

export const dynamic = "force-dynamic";

export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const context = getServiceContext();
  const [t, tErrors, locale] = [await getTranslations("Consent"), await getTranslations("ErrorPage"), await getLocale()];
  const returnUrl = safeLocalPath(single(query.returnUrl));
  const params = authorizeParametersOf(returnUrl);
  const { request, problem } = params ? await authorizationForPage(context, params) : { problem: "no authorization request" };
  if (!request || !returnUrl) {
    return (
      <InteractionCard title={tErrors("title")}>
        <Alert>{tErrors("invalid_request")}</Alert>
        <p className="text-sm text-slate-600">{problem}</p>
      </InteractionCard>
    );
  }
  const session = await currentSession();
  if (!session) redirect(`/login?${new URLSearchParams({ returnUrl })}`);
  const view = await consentView(context, request, locale);

  return (
    <InteractionCard title={t("title")} subtitle={t("signedInAs", { name: `${session.user.givenName} ${session.user.familyName}`, email: session.user.email })}>
      {single(query.error) === "form_expired" ? <Alert>{(await getTranslations("Login"))("errors.form_expired")}</Alert> : null}
      <p className="font-medium text-slate-900">{t("intro", { client: view.clientName })}</p>
      {view.clientDescription ? <p className="mt-1 text-sm text-slate-600">{view.clientDescription}</p> : null}
      <form method="post" action="/interaction/consent" className="mt-5">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken(context)} />
        <input type="hidden" name="returnUrl" value={returnUrl} />
        <fieldset>
          <legend className="sr-only">{t("title")}</legend>
          <ul className="space-y-3">
            {view.scopes.map((scope) => (
              <li key={scope.name} className="flex gap-3 rounded-md border border-slate-200 p-3">
                <input id={`scope-${scope.name}`} type="checkbox" name="scope" value={scope.name} defaultChecked disabled={scope.required}
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-700" />
                <label htmlFor={`scope-${scope.name}`} className="text-sm">
                  <span className="block font-medium text-slate-900">
                    {scope.title}
                    {scope.required ? <span className="ml-2 text-xs font-normal text-slate-600">({t("required")})</span> : null}
                  </span>
                  <span className="block text-slate-600">{scope.description}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {view.offline ? <p className="mt-4 text-sm text-slate-700">{t("offline")}</p> : null}
        <p className="mt-4 text-sm text-slate-600">{t("remember")}</p>
        <div className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2">
          <button type="submit" name="decision" value="deny" className={buttonSecondary}>{t("deny")}</button>
          <button type="submit" name="decision" value="allow" className={buttonPrimary}>{t("allow")}</button>
        </div>
      </form>
    </InteractionCard>
  );
}
