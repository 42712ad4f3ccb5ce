import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { pageUrl } from "@/lib/http/see-other";
import { safeLocalPath } from "@/lib/http/local-path";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { secondStepOfPage } from "@/lib/pages/second-step-page";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";
import { PasskeyButton } from "@/app/_components/passkey-button";
import { passkeyErrors } from "@/app/_components/passkey-errors";

export const dynamic = "force-dynamic";

const ERRORS = ["wrong_code", "throttled", "form_expired"] as const;
/** What the page names, by the factors the person has (passkey, app). */
const INTROS = {
  "true-true": "introBoth",
  "true-false": "introPasskey",
  "false-true": "introApp",
  "false-false": "introApp",
} as const;

export default async function SecondFactorPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const returnUrl = safeLocalPath(single(query.returnUrl)) ?? "/";
  const step = await secondStepOfPage();
  if (!step) redirect(pageUrl(PAGES.login, { returnUrl }));
  // A session that must step up but has no factor yet: the security page enrols one, then continues.
  if (step.choices.none) redirect(pageUrl(PAGES.security, { enrol: "required", returnUrl }));
  const t = await getTranslations("SecondFactor");
  const csrf = await pageCsrfToken();
  const error = ERRORS.find((code) => code === single(query.error));
  return (
    <SignInCard
      title={t("title")}
      subtitle={t(INTROS[`${step.choices.passkey}-${step.choices.app}`], { name: step.name })}
    >
      {error ? <Alert>{t(`errors.${error}`, { minutes: Number(single(query.minutes) ?? 15) })}</Alert> : null}
      {step.choices.passkey ? (
        <PasskeyButton
          mode="second-factor"
          csrf={csrf}
          returnUrl={returnUrl}
          label={t("passkey")}
          errors={await passkeyErrors()}
          className={step.choices.app ? buttonSecondary : buttonPrimary}
        />
      ) : null}
      {step.choices.passkey ? <p className="my-4 text-center text-sm text-slate-600">{t("or")}</p> : null}
      <form method="post" action={FORMS.secondFactor} className="space-y-4">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="returnUrl" value={returnUrl} />
        <div>
          <label htmlFor="code" className="block text-sm font-medium text-slate-800">
            {t("code")}
          </label>
          <p id="code-hint" className="text-sm text-slate-600">
            {t("codeHint")}
          </p>
          <input
            id="code"
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            maxLength={20}
            autoFocus={!step.choices.passkey}
            aria-describedby="code-hint"
            aria-invalid={error === "wrong_code" ? true : undefined}
            className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 font-mono tracking-widest text-slate-900 shadow-sm focus:border-brand-600"
          />
        </div>
        <button type="submit" className={step.choices.passkey && !step.choices.app ? buttonSecondary : buttonPrimary}>
          {t("submit")}
        </button>
      </form>
      {step.via === "pending" ? (
        <p className="mt-4 text-center text-sm">
          <a href={pageUrl(PAGES.login, { returnUrl })} className="font-medium text-brand-700 underline">
            {t("otherAccount")}
          </a>
        </p>
      ) : null}
    </SignInCard>
  );
}
