/** Changing an endpoint's address, description or events; a refusal comes back at its field with what was typed. */
import { getTranslations } from "next-intl/server";
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import type { WebhookView } from "@/lib/rights/webhook-pages";
import { Alert, buttonSecondary } from "@/app/_components/ui";
import { WebhookFields } from "@/app/_components/webhooks/webhook-fields";
import { WebhookHiddenFields, type WebhookForms } from "@/app/_components/webhooks/webhook-form-fields";
import { webhookProblemText } from "@/app/_components/webhooks/webhook-problem";

const AT_A_FIELD = ["invalid_url", "invalid_description", "invalid_events"];

export async function WebhookChangeForm({
  forms,
  endpoint,
  events,
  refused,
}: {
  forms: WebhookForms;
  endpoint: WebhookView;
  events: readonly string[];
  /** this form's refusal, if it was the last form sent */
  refused?: WebhookFormOutcome;
}) {
  const t = await getTranslations("Webhooks");
  const error = await webhookProblemText(refused);
  const values = refused?.typed ?? {
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
  };
  return (
    <form method="post" action={forms.action} className="space-y-4">
      {error && !AT_A_FIELD.includes(refused?.problem ?? "") ? <Alert>{error}</Alert> : null}
      <WebhookHiddenFields forms={forms} action="webhook-change" endpointId={endpoint.id} />
      <WebhookFields
        idPrefix={`webhook-${endpoint.id}`}
        events={events}
        values={values}
        problem={refused?.problem}
        error={error}
      />
      <button type="submit" className={`${buttonSecondary} sm:w-auto`}>
        {t("save")}
      </button>
    </form>
  );
}
