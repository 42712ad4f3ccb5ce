/** Adding an endpoint: its address, description and events; a refusal comes back at its field with what was typed. */
import { getTranslations } from "next-intl/server";
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { WebhookFields } from "@/app/_components/webhooks/webhook-fields";
import { WebhookHiddenFields, type WebhookForms } from "@/app/_components/webhooks/webhook-form-fields";
import { webhookProblemText } from "@/app/_components/webhooks/webhook-problem";

const AT_A_FIELD = ["invalid_url", "invalid_description", "invalid_events"];

export async function NewWebhookForm({
  forms,
  events,
  refused,
  level = 2,
}: {
  forms: WebhookForms;
  events: readonly string[];
  /** the add form's refusal, if it was the last form sent */
  refused?: WebhookFormOutcome;
  /** the heading's level: 3 inside a section of a page */
  level?: 2 | 3;
}) {
  const t = await getTranslations("Webhooks");
  const error = await webhookProblemText(refused);
  const Heading = level === 3 ? "h3" : "h2";
  return (
    <form
      id="webhook-new"
      method="post"
      action={forms.action}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <Heading className="text-lg font-semibold text-brand-800">{t("newTitle")}</Heading>
      {error && !AT_A_FIELD.includes(refused?.problem ?? "") ? <Alert>{error}</Alert> : null}
      <WebhookHiddenFields forms={forms} action="webhook-add" />
      <WebhookFields
        idPrefix="webhook-new"
        events={events}
        values={refused?.typed}
        problem={refused?.problem}
        error={error}
      />
      <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
        {t("add")}
      </button>
    </form>
  );
}
