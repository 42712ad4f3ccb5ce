/**
 * POST /interaction/company/webhooks: the webhook forms of /portal/company, for the company's administrators and
 * their company's endpoints alone (the rights functions hold them to it: another company's endpoint is not found).
 * Operators keep the platform's endpoints on /admin/webhooks, and anyone else gets a plain 403: no page offers them
 * these forms. The outcome, with a new secret the one time it is shown, goes to the company page in its cookie.
 */
import { PAGES } from "@/lib/http/paths";
import { COMPANY_WEBHOOK_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { AccessDenied, actorOfRequest, isOperator } from "@/lib/rights/actor";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import {
  endpointIdOf,
  isWebhookFormAction,
  runWebhookAction,
  webhookAnswer,
  webhookRefusal,
  type WebhookFormOutcome,
} from "@/lib/forms/webhook-form";

/** The part of the page the outcome belongs to: the endpoint's card, the add form, or the section. */
function locationOf(outcome: WebhookFormOutcome): string {
  if (outcome.action === "webhook-add" && outcome.problem) return `${PAGES.company}#webhook-new`;
  const card = outcome.endpointId && outcome.action !== "webhook-remove" && outcome.problem !== "not_found";
  return card ? `${PAGES.company}#webhook-${outcome.endpointId}` : `${PAGES.company}#webhooks`;
}

export async function handleCompanyWebhookSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind !== "user") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.company }));
  if (isOperator(actor)) return plainRefusal(403, "Forbidden");
  const form = await readForm(request);
  const action = form.get("action");
  const answer = (outcome: WebhookFormOutcome) =>
    webhookAnswer(locationOf(outcome), outcome, {
      name: COMPANY_WEBHOOK_COOKIE,
      path: PAGES.company,
      secretKey: config.secretKey,
      publicUrl: config.publicUrl,
    });
  const known = isWebhookFormAction(action) ? action : "";
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return answer({ action: known, problem: "form_expired", endpointId: endpointIdOf(form) || undefined });
  if (!known) return answer({ action: "", problem: "unknown_action" });
  try {
    return answer(await runWebhookAction(actor, known, form));
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    const refused = webhookRefusal(error, known, form);
    if (refused) return answer(refused);
    throw error;
  }
}
