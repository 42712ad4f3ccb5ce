import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { pageLinkToken } from "@/lib/pages/page-cookies";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { passwordMinLength } from "@/lib/pages/password-rules";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { resetLinkOf, type ClosedAccountLink } from "@/lib/rights/account-links";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";
import { ForgotPasswordForm } from "@/app/_components/forgot-password-form";
import { PasswordField } from "@/app/_components/password-field";

export const dynamic = "force-dynamic";

const CLOSED: ClosedAccountLink[] = ["unknown", "used", "expired"];

export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const t = await getTranslations("ResetPassword");
  const token = await pageLinkToken(PAGES.resetPassword);
  const link = await resetLinkOf(token);
  const closed = CLOSED.find((state) => state === (link.state === "open" ? single(query.closed) : link.state));
  const csrf = <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />;
  if (link.state !== "open" || closed) {
    const forgot = await getTranslations("ForgotPassword");
    return (
      <SignInCard title={t("closedTitle")}>
        <Alert>{t(`closed.${closed ?? "unknown"}`)}</Alert>
        <ForgotPasswordForm
          csrf={csrf}
          email=""
          labels={{ email: forgot("email"), submit: t("requestNew") }}
          buttonClass={buttonSecondary}
        />
      </SignInCard>
    );
  }
  const error = single(query.error);
  return (
    <SignInCard title={t("title")} subtitle={t("intro", { email: link.email })}>
      {error === "form_expired" ? <Alert>{t("errors.form_expired")}</Alert> : null}
      <form method="post" action={FORMS.resetPassword} className="space-y-4">
        {csrf}
        <input type="hidden" name="username" value={link.email} autoComplete="username" />
        <PasswordField
          id="password"
          label={t("password")}
          minLength={passwordMinLength()}
          person={link.person}
          language={link.language}
          problem={error}
        />
        <button type="submit" className={buttonPrimary}>
          {t("submit")}
        </button>
      </form>
    </SignInCard>
  );
}
