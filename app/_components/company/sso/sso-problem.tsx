/** Why a company sign-in form was refused, as the page says it: the localized message, and the check's own words. */
import { getTranslations } from "next-intl/server";
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import { Alert } from "@/app/_components/ui";

/** The refusal's text; what the check said is English, and marked so for screen readers. */
export async function problemText(outcome: CompanySsoOutcome): Promise<React.ReactNode> {
  if (!outcome.problem) return null;
  const t = await getTranslations("CompanySso.problems");
  return (
    <>
      {t(outcome.problem, { domain: outcome.domain ?? "" })}
      {outcome.detail ? (
        <span lang="en" className="mt-0.5 block text-xs font-normal break-words text-slate-700">
          {outcome.detail}
        </span>
      ) : null}
    </>
  );
}

/** A refusal that belongs to no one field, at the top of its part of the section. */
export async function SsoAlert({ outcome }: { outcome?: CompanySsoOutcome }) {
  return outcome?.problem && !outcome.field ? <Alert>{await problemText(outcome)}</Alert> : null;
}
