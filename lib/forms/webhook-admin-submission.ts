/**
 * The operator's webhook forms (/admin/webhooks and an endpoint's page), posted to /interaction/admin, which has
 * checked that an operator acts: the platform's endpoints, through lib/forms/webhook-form.ts. The outcome goes to the
 * endpoint's page (a new endpoint's secret, shown there once), or to the list when the endpoint is gone or the form
 * added none.
 */
import { PAGES, adminWebhookPage } from "@/lib/http/paths";
import { ADMIN_WEBHOOK_COOKIE } from "@/lib/http/flash-cookies";
import { plainRefusal } from "@/lib/http/see-other";
import { AccessDenied, type Actor } from "@/lib/rights/actor";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import {
  endpointIdOf,
  isWebhookFormAction,
  runWebhookAction,
  webhookAnswer,
  webhookRefusal,
  type WebhookFormAction,
  type WebhookFormOutcome,
} from "@/lib/forms/webhook-form";

export { isWebhookFormAction };

/** Where the outcome is shown: the endpoint's page while it exists, else the list (at the add form when refused). */
function locationOf(outcome: WebhookFormOutcome): string {
  const gone = outcome.problem === "not_found" || (outcome.action === "webhook-remove" && !outcome.problem);
  if (outcome.endpointId && !gone) return adminWebhookPage(outcome.endpointId);
  return outcome.action === "webhook-add" && outcome.problem
    ? `${PAGES.adminWebhooks}#webhook-new`
    : PAGES.adminWebhooks;
}

export async function submitAdminWebhookForm(
  request: Request,
  context: ServiceContext,
  actor: Actor,
  form: URLSearchParams,
  action: WebhookFormAction,
): Promise<Response> {
  const { config } = context;
  const answer = (outcome: WebhookFormOutcome) =>
    webhookAnswer(locationOf(outcome), outcome, {
      name: ADMIN_WEBHOOK_COOKIE,
      path: PAGES.adminWebhooks,
      secretKey: config.secretKey,
      publicUrl: config.publicUrl,
    });
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) {
    const endpointId = action === "webhook-add" ? undefined : endpointIdOf(form) || undefined;
    return answer({ action, problem: "form_expired", endpointId });
  }
  try {
    return answer(await runWebhookAction(actor, action, form));
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    const refused = webhookRefusal(error, action, form);
    if (refused) return answer(refused);
    throw error;
  }
}
