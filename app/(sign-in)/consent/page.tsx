import { getLocale, getTranslations } from "next-intl/server";
import { consentPrompt } from "@/lib/rights/consent";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const interaction = single(query.interaction) ?? "";
  const [t, tErrors, locale] = [
    await getTranslations("Consent"),
    await getTranslations("ErrorPage"),
    await getLocale(),
  ];
  const prompt = interaction
    ? await pageData(`/consent?${new URLSearchParams({ interaction })}`, (actor) =>
        consentPrompt(actor, interaction, locale),
      )
    : undefined;
  if (!prompt) {
    return (
      <SignInCard title={tErrors("title")}>
        <Alert>{t("expired")}</Alert>
        <a href="/" className="text-sm font-medium text-brand-700 underline underline-offset-2">
          {tErrors("home")}
        </a>
      </SignInCard>
    );
  }

  return (
    <SignInCard title={t("title")} subtitle={t("signedInAs", prompt.user)}>
      {single(query.error) === "form_expired" ? (
        <Alert>{(await getTranslations("Login"))("errors.form_expired")}</Alert>
      ) : null}
      <p className="font-medium text-slate-900">{t("intro", { client: prompt.clientName })}</p>
      {prompt.clientDescription ? <p className="mt-1 text-sm text-slate-600">{prompt.clientDescription}</p> : null}
      <form method="post" action="/interaction/consent" className="mt-5">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
        <input type="hidden" name="interaction" value={interaction} />
        <fieldset>
          <legend className="sr-only">{t("title")}</legend>
          <ul className="space-y-3">
            {prompt.scopes.map((scope) => (
              <li key={scope.name} className="flex gap-3 rounded-md border border-slate-200 p-3">
                <input
                  id={`scope-${scope.name}`}
                  type="checkbox"
                  name="scope"
                  value={scope.name}
                  defaultChecked
                  disabled={scope.required}
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
                />
                <label htmlFor={`scope-${scope.name}`} className="text-sm">
                  <span className="block font-medium text-slate-900">
                    {scope.title}
                    {scope.required ? (
                      <span className="ml-2 text-xs font-normal text-slate-600">({t("required")})</span>
                    ) : null}
                  </span>
                  <span className="block text-slate-600">{scope.description}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {prompt.offline ? <p className="mt-4 text-sm text-slate-700">{t("offline")}</p> : null}
        <p className="mt-4 text-sm text-slate-600">{t("remember")}</p>
        <div className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2">
          <button type="submit" name="decision" value="deny" className={buttonSecondary}>
            {t("deny")}
          </button>
          <button type="submit" name="decision" value="allow" className={buttonPrimary}>
            {t("allow")}
          </button>
        </div>
      </form>
    </SignInCard>
  );
}
