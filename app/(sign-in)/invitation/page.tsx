import { FORMS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { invitationOfLink, type ClosedLink } from "@/lib/rights/invitation-links";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { refusedInvitationForm } from "@/lib/pages/shown-once";
import { passwordMinLength } from "@/lib/pages/password-rules";
import { Alert, buttonPrimary, buttonSecondary, SignInCard } from "@/app/_components/ui";
import { fieldAria, FieldError, invalidInput } from "@/app/_components/labelled-field";
import { PasswordField } from "@/app/_components/password-field";
import { ProofOfWork } from "@/app/_components/proof-of-work";
import { pageProofChallenge } from "@/lib/pages/page-proof-of-work";

export const dynamic = "force-dynamic";

const CLOSED: ClosedLink[] = ["unknown", "used", "expired", "company_inactive", "already_user"];
const FIELD_ERRORS = ["invalid_name"] as const;
const inputClass = `mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 ${invalidInput}`;

export default async function InvitationPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const token = single(query.token);
  const t = await getTranslations("Invitation");
  const refused = await refusedInvitationForm();
  const link = await invitationOfLink(token);
  const closed = CLOSED.find((state) => state === (link.state === "open" ? refused?.problem : link.state));
  if (link.state !== "open" || closed) {
    return (
      <SignInCard title={t("closedTitle")}>
        <Alert>{t(`closed.${closed ?? "unknown"}`)}</Alert>
        <Link href={PAGES.login} className={buttonSecondary}>
          {t("signIn")}
        </Link>
      </SignInCard>
    );
  }
  const problem = FIELD_ERRORS.find((code) => code === refused?.problem);
  const errorAt = (field: string) => (problem && refused?.field === field ? t(`errors.${problem}`) : null);
  const field = (id: string, label: string, autoComplete: string, value?: string) => (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={id}
        autoComplete={autoComplete}
        required
        maxLength={100}
        defaultValue={value}
        className={inputClass}
        {...fieldAria(id, false, errorAt(id))}
      />
      <FieldError id={id} error={errorAt(id)} />
    </div>
  );
  return (
    <SignInCard title={t("title", { company: link.companyName })} subtitle={t("intro", { email: link.email })}>
      {refused?.problem === "form_expired" ? <Alert>{t("errors.form_expired")}</Alert> : null}
      <form method="post" action={FORMS.invitation} className="space-y-4">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="username" value={link.email} autoComplete="username" />
        {field("given_name", t("givenName"), "given-name", refused?.givenName ?? link.givenName)}
        {field("family_name", t("familyName"), "family-name", refused?.familyName ?? link.familyName)}
        <PasswordField
          id="password"
          label={t("password")}
          minLength={passwordMinLength()}
          person={{ email: link.email, companyName: link.companyName }}
          language={link.language}
          problem={refused?.field === "password" ? refused.problem : undefined}
        />
        <ProofOfWork
          challenge={await pageProofChallenge("invitation", { error: refused?.problem })}
          error={refused?.problem}
        />
        <button type="submit" className={buttonPrimary}>
          {t("submit")}
        </button>
      </form>
    </SignInCard>
  );
}
