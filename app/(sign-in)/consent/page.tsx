import { FORMS, PAGES } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import { consentPrompt, type ConsentView } from "@/lib/rights/consent";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";
import { ScopeChoices } from "@/app/_components/scope-choices";

export const dynamic = "force-dynamic";

type ConsentText = Awaited<ReturnType<typeof getTranslations<"Consent">>>;

/** Who is signed in, and "not you?": a form, as it ends that user's session before the next one signs in. */
function SignedInAs({ t, prompt, form }: { t: ConsentText; prompt: ConsentView; form: ReactNode }) {
  return (
    <>
      <p>{t("signedInAs", prompt.user)}</p>
      <form method="post" action={FORMS.consent} className="mt-1">
        {form}
        {t("notYou")}{" "}
        <button
          type="submit"
          name="decision"
          value="switch_user"
          className="rounded font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
        >
          {t("switchUser")}
        </button>
      </form>
    </>
  );
}

/** Where access can be taken back later; in a new tab, so that the sign-in under way stays open here. */
function ManageAccessNote({ t }: { t: ConsentText }) {
  return (
    <p className="mt-4 text-sm text-slate-600">
      {t.rich("remember", {
        manage: (chunks) => (
          <a
            href={PAGES.portal}
            target="_blank"
            rel="noopener"
            className="rounded font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
          >
            {chunks}
            <span className="sr-only"> {t("opensInNewTab")}</span>
          </a>
        ),
      })}
    </p>
  );
}

function ExpiredPrompt({ title, text, home }: { title: string; text: string; home: string }) {
  return (
    <SignInCard title={title}>
      <Alert>{text}</Alert>
      <a href="/" className="text-sm font-medium text-brand-700 underline underline-offset-2">
        {home}
      </a>
    </SignInCard>
  );
}

export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const interaction = single(query.interaction) ?? "";
  const [t, tErrors, locale] = [
    await getTranslations("Consent"),
    await getTranslations("ErrorPage"),
    await getLocale(),
  ];
  const prompt = interaction
    ? await pageData(`${PAGES.consent}?${new URLSearchParams({ interaction })}`, (actor) =>
        consentPrompt(actor, interaction, locale),
      )
    : undefined;
  if (!prompt) return <ExpiredPrompt title={tErrors("title")} text={t("expired")} home={tErrors("home")} />;

  const formFields = (
    <>
      <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
      <input type="hidden" name="interaction" value={interaction} />
    </>
  );
  return (
    <SignInCard title={t("title")} subtitle={<SignedInAs t={t} prompt={prompt} form={formFields} />}>
      {single(query.error) === "form_expired" ? (
        <Alert>{(await getTranslations("Login"))("errors.form_expired")}</Alert>
      ) : null}
      <p className="font-medium text-slate-900">{t("intro", { client: prompt.clientName })}</p>
      {prompt.clientDescription ? <p className="mt-1 text-sm text-slate-600">{prompt.clientDescription}</p> : null}
      {prompt.sandbox ? (
        <p
          data-sandbox="true"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <strong className="font-semibold">{t("sandboxTitle")}</strong> {t("sandboxText")}
        </p>
      ) : null}
      <form method="post" action={FORMS.consent} className="mt-5">
        {formFields}
        <ScopeChoices legend={t("title")} requiredLabel={t("required")} scopes={prompt.scopes} />
        <ManageAccessNote t={t} />
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
