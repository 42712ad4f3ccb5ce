/** Why a webhook form was refused, as the pages say it: the localized sentence, and the rule's own words under it. */
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import { Alert } from "@/app/_components/ui";

/** The refusal's text; what the rule said is English, and marked so for screen readers. */
export async function webhookProblemText(outcome: WebhookFormOutcome | undefined): Promise<ReactNode> {
  if (!outcome?.problem) return null;
  const t = await getTranslations("Webhooks.problems");
  return (
    <>
      {t(outcome.problem)}
      {outcome.detail ? (
        <span lang="en" className="mt-0.5 block text-xs font-normal break-words text-slate-700">
          {outcome.detail}
        </span>
      ) : null}
    </>
  );
}

/** What the last form did, or why it was refused, above the part of the page it concerns. */
export async function WebhookOutcome({ outcome }: { outcome?: WebhookFormOutcome }) {
  if (!outcome?.action && !outcome?.problem) return null;
  if (outcome.problem) return <Alert>{await webhookProblemText(outcome)}</Alert>;
  const t = await getTranslations("Webhooks.done");
  return (
    <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
      {t(outcome.action as "webhook-add")}
    </p>
  );
}
