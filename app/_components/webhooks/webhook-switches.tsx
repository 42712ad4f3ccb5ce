/**
 * An endpoint's switches: turn it off (nothing is sent to it) or on again (which clears why it was off), and a new
 * secret in place of the old one, which stops signing at once.
 */
import { getTranslations } from "next-intl/server";
import type { WebhookView } from "@/lib/rights/webhook-pages";
import {
  smallWebhookButton,
  WebhookButtonForm,
  type WebhookForms,
} from "@/app/_components/webhooks/webhook-form-fields";

export async function WebhookSwitches({ endpoint, forms }: { endpoint: WebhookView; forms: WebhookForms }) {
  const t = await getTranslations("Webhooks");
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-start gap-2">
        <WebhookButtonForm
          forms={forms}
          action={endpoint.enabled ? "webhook-disable" : "webhook-enable"}
          endpointId={endpoint.id}
        >
          <button type="submit" className={smallWebhookButton}>
            {endpoint.enabled ? t("disable") : t("enable")}
          </button>
        </WebhookButtonForm>
        <WebhookButtonForm forms={forms} action="webhook-rotate" endpointId={endpoint.id}>
          <button type="submit" className={smallWebhookButton}>
            {t("rotate")}
          </button>
        </WebhookButtonForm>
      </div>
      <p className="text-xs text-slate-600">{t("rotateHint")}</p>
    </div>
  );
}
