import { ENDPOINTS, FORMS, PAGES } from "@/lib/http/paths";
import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { pageUrl } from "@/lib/http/see-other";
import { registeredClientName } from "@/lib/rights/public-clients";
import { safeLocalPath } from "@/lib/http/local-path";
import { authorizeParametersOf } from "@/lib/oauth/authorize/return-url";
import { rememberedUsername } from "@/lib/pages/shown-once";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary, Notice, SignInCard } from "@/app/_components/ui";
import { PasskeyButton } from "@/app/_components/passkey-button";
import { passkeyErrors } from "@/app/_components/passkey-errors";
import { ProofOfWork } from "@/app/_components/proof-of-work";
import { pageProofChallenge } from "@/lib/pages/page-proof-of-work";

export const dynamic = "force-dynamic";

const ERRORS = [
  "invalid_credentials",
  "account_disabled",
  "throttled",
  "form_expired",
  "missing_fields",
  "missing_email",
  "sso_unreachable",
  "sso_denied",
  "sso_refused",
  "sso_expired",
  "sso_account_exists",
  "sso_domain_not_verified",
  "sso_only",
] as const;

/**
 * The login page in two steps: the email address first (where its domain has its company's own sign-in, that takes
 * over), then the password with the address filled in. The second step's form carries both, so it stands alone.
 */
export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const [t, locale] = [await getTranslations("Login"), await getLocale()];
  const returnUrl = safeLocalPath(single(query.returnUrl)) ?? PAGES.home;
  const authorize = authorizeParametersOf(returnUrl);
  const clientId = authorize?.get("client_id");
  const clientName = clientId ? await registeredClientName(clientId, locale) : undefined;
  const error = ERRORS.find((code) => code === single(query.error));
  const username = (await rememberedUsername()) ?? authorize?.get("login_hint") ?? "";
  const passwordStep = single(query.step) === "password";
  const linking = passwordStep && single(query.notice) === "sso_link";
  // A relying party that names the person's company domain (idp_hint) spares them the question, once.
  if (authorize?.get("idp_hint") && !error && !passwordStep && !single(query.hinted))
    redirect(pageUrl(ENDPOINTS.companySsoStart, { returnUrl }));
  const csrf = await pageCsrfToken();
  const proof = passwordStep
    ? await pageProofChallenge("login", { account: username, error: single(query.error) })
    : null;

  return (
    <SignInCard title={t("title")} subtitle={clientName ? t("continueTo", { client: clientName }) : t("intro")}>
      {error ? <Alert>{t(`errors.${error}`, { minutes: Number(single(query.minutes) ?? 15) })}</Alert> : null}
      {linking && !error ? <Notice>{t("notices.sso_link")}</Notice> : null}
      <form method="post" action={FORMS.login} className="space-y-4">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="returnUrl" value={returnUrl} />
        <div>
          <label htmlFor="username" className="block text-sm font-medium text-slate-800">
            {t("username")}
          </label>
          <input
            id="username"
            name="username"
            type="email"
            autoComplete="username webauthn"
            required
            defaultValue={username}
            autoFocus={!passwordStep || !username}
            className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600"
          />
        </div>
        {passwordStep ? (
          <div>
            <label htmlFor="password" className="block text-sm font-medium text-slate-800">
              {t("password")}
            </label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus={Boolean(username)}
              className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600"
            />
          </div>
        ) : null}
        {passwordStep ? <ProofOfWork challenge={proof} error={single(query.error)} /> : null}
        <button type="submit" className={buttonPrimary}>
          {t("submit")}
        </button>
      </form>
      <div className="mt-4 space-y-3">
        <p className="text-center text-sm text-slate-600">{t("or")}</p>
        <PasskeyButton
          mode="sign-in"
          csrf={csrf}
          returnUrl={returnUrl}
          label={t("passkey")}
          errors={await passkeyErrors()}
          className={buttonSecondary}
          autofill
        />
      </div>
      <p className="mt-4 text-center text-sm">
        <a href={pageUrl(PAGES.forgotPassword, { returnUrl })} className="font-medium text-brand-700 underline">
          {t("forgotPassword")}
        </a>
      </p>
    </SignInCard>
  );
}
