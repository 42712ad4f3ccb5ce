/** Why a company API client form was refused, as the page says it: the localized message, and the rule's own words. */
import { getTranslations } from "next-intl/server";
import type { CompanyClientOutcome } from "@/lib/forms/company-client-submission";

/** The refusal's text; what the rule said is English, and marked so for screen readers. */
export async function clientProblemText(outcome: CompanyClientOutcome): Promise<React.ReactNode> {
  if (!outcome.problem) return null;
  const t = await getTranslations("CompanyClients.problems");
  return (
    <>
      {t(outcome.problem as "form_expired")}
      {outcome.detail ? (
        <span lang="en" className="mt-0.5 block text-xs font-normal break-words text-slate-700">
          {outcome.detail}
        </span>
      ) : null}
    </>
  );
}
