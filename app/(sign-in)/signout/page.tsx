import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { END_SESSION_PARAMETERS } from "@/lib/oauth/endsession/end-session-parameters";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

export default async function SignOutPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const t = await getTranslations("SignOut");
  if (single(query.done)) {
    return (
      <SignInCard title={t("title")}>
        <p role="status" className="text-slate-800">
          {t("done")}
        </p>
        <a href="/" className="mt-4 inline-block text-sm font-medium text-brand-700 underline underline-offset-2">
          {t("home")}
        </a>
      </SignInCard>
    );
  }
  return (
    <SignInCard title={t("title")}>
      {single(query.error) === "form_expired" ? <Alert>{t("expired")}</Alert> : null}
      <p className="font-medium text-slate-900">{t("question")}</p>
      <p className="mt-2 text-sm text-slate-600">{t("explanation")}</p>
      <form method="post" action={FORMS.signOut} className="mt-6 grid gap-3 sm:grid-cols-2">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
        {END_SESSION_PARAMETERS.map((name) => {
          const value = single(query[name]);
          return value ? <input key={name} type="hidden" name={name} value={value} /> : null;
        })}
        <a href="/" className={buttonSecondary}>
          {t("stay")}
        </a>
        <button type="submit" name="decision" value="logout" className={buttonPrimary}>
          {t("confirm")}
        </button>
      </form>
    </SignInCard>
  );
}
