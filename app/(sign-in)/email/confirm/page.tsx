import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { pageLinkToken } from "@/lib/pages/page-cookies";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { emailLinkOf } from "@/lib/rights/account-links";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

const CLOSED = ["unknown", "used", "expired", "email_taken"] as const;

export default async function EmailConfirmPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const t = await getTranslations("EmailConfirm");
  const next = (
    <a href={PAGES.profile} className={buttonSecondary}>
      {t("continue")}
    </a>
  );
  if (single(query.done)) {
    return (
      <SignInCard title={t("doneTitle")}>
        <p role="status" className="mb-6 text-sm text-slate-700">
          {t("done")}
        </p>
        {next}
      </SignInCard>
    );
  }
  const link = await emailLinkOf(await pageLinkToken(PAGES.confirmEmail));
  const closed = CLOSED.find((state) => state === (link.state === "open" ? single(query.closed) : link.state));
  if (link.state !== "open" || closed) {
    return (
      <SignInCard title={t("closedTitle")}>
        <Alert>{t(`closed.${closed ?? "unknown"}`)}</Alert>
        {next}
      </SignInCard>
    );
  }
  return (
    <SignInCard title={t("title")} subtitle={t("intro", { email: link.email, newEmail: link.newEmail })}>
      {single(query.error) === "form_expired" ? (
        <Alert>{(await getTranslations("Portal"))("errors.form_expired")}</Alert>
      ) : null}
      <form method="post" action={FORMS.email}>
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
        <button type="submit" className={buttonPrimary}>
          {t("submit", { newEmail: link.newEmail })}
        </button>
      </form>
    </SignInCard>
  );
}
