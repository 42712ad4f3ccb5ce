import { PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { PASSWORD_RESET_LINK_MINUTES } from "@/lib/config/policy";
import { safeLocalPath } from "@/lib/http/local-path";
import { authorizeParametersOf } from "@/lib/oauth/authorize/return-url";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageUrl } from "@/lib/http/see-other";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";
import { ForgotPasswordForm } from "@/app/_components/forgot-password-form";
import { ProofOfWork } from "@/app/_components/proof-of-work";
import { pageProofChallenge } from "@/lib/pages/page-proof-of-work";

export const dynamic = "force-dynamic";

const ERRORS = ["invalid_email", "throttled", "form_expired"] as const;

export default async function ForgotPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const t = await getTranslations("ForgotPassword");
  const returnUrl = safeLocalPath(single(query.returnUrl));
  const signIn = pageUrl(PAGES.login, { returnUrl });
  if (single(query.sent)) {
    return (
      <SignInCard title={t("sentTitle")}>
        <p role="status" className="mb-6 text-sm text-slate-700">
          {t("sent", { minutes: PASSWORD_RESET_LINK_MINUTES })}
        </p>
        <a href={signIn} className={buttonSecondary}>
          {t("backToSignIn")}
        </a>
      </SignInCard>
    );
  }
  const error = single(query.error);
  const shownError = ERRORS.find((code) => code === error);
  return (
    <SignInCard title={t("title")} subtitle={t("intro")}>
      {shownError ? <Alert>{t(`errors.${shownError}`, { minutes: Number(single(query.minutes) ?? 60) })}</Alert> : null}
      <ForgotPasswordForm
        csrf={<input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />}
        proof={<ProofOfWork challenge={await pageProofChallenge("password_reset", { error })} error={error} />}
        returnUrl={returnUrl}
        email={authorizeParametersOf(returnUrl)?.get("login_hint") ?? ""}
        labels={{ email: t("email"), submit: t("submit") }}
        buttonClass={buttonPrimary}
      />
      <p className="mt-4 text-center text-sm">
        <a href={signIn} className="font-medium text-brand-700 underline">
          {t("backToSignIn")}
        </a>
      </p>
    </SignInCard>
  );
}
