/**
 * The webhook forms of the operator's /admin/webhooks and of the company page, one set for both: what each action
 * does, through the rights functions the management API uses (lib/rights/webhooks.ts), and what the page after it
 * shows: a new secret the one time it exists, or why the rule refused, with what was typed. The outcome travels in a
 * sealed one-time cookie of the page's own (never in the URL); the caller checks who acts and the CSRF token.
 */
import { MAX_DESCRIPTION_LENGTH, MAX_URI_LENGTH } from "@/lib/config/policy";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { seeOther } from "@/lib/http/see-other";
import type { Actor } from "@/lib/rights/actor";
import {
  addWebhookFor,
  changeWebhookFor,
  removeWebhookFor,
  replayWebhookDeliveryFor,
  rotateWebhookSecretFor,
  setWebhookEnabled,
  webhookFor,
  WebhookError,
} from "@/lib/rights/webhooks";

const WEBHOOK_FORM_ACTIONS = [
  "webhook-add",
  "webhook-change",
  "webhook-enable",
  "webhook-disable",
  "webhook-rotate",
  "webhook-remove",
  "webhook-replay",
] as const;
export type WebhookFormAction = (typeof WEBHOOK_FORM_ACTIONS)[number];

/** Why a form was refused: the message key of Webhooks.problems. */
export type WebhookProblem =
  | "form_expired"
  | "unknown_action"
  | "invalid_url"
  | "invalid_description"
  | "invalid_events"
  | "invalid_webhook"
  | "too_many"
  | "not_found"
  | "not_replayable";

/** What was typed into an add or change form, to fill it again after a refusal. */
export interface WebhookTyped {
  url: string;
  description: string;
  events: string[];
}

/** What the page after a webhook form shows. */
export interface WebhookFormOutcome {
  action: WebhookFormAction | "";
  problem?: WebhookProblem;
  /** what the rule said, in English, shown under the page's own sentence */
  detail?: string;
  endpointId?: string;
  deliveryId?: string;
  /** a secret made just now (a new endpoint's, or a rotated one): shown this once */
  secret?: string;
  typed?: WebhookTyped;
}

/** Longer than any endpoint or delivery id; such input is cut before it reaches a rule or a cookie. */
const MAX_ID_LENGTH = 100;
/** What of a refused URL comes back into the form: enough to correct it, little enough for a cookie. */
const MAX_TYPED_URL = 500;
const MAX_DETAIL_LENGTH = 300;
/** More than there are event types, so that the rule, not the form, refuses a doubled list. */
const MAX_EVENTS = 40;

export const isWebhookFormAction = (action: unknown): action is WebhookFormAction =>
  (WEBHOOK_FORM_ACTIONS as readonly unknown[]).includes(action);

export const endpointIdOf = (form: URLSearchParams) => (form.get("endpoint_id") ?? "").slice(0, MAX_ID_LENGTH);

/** The endpoint as the form describes it; one character over each limit, so that the rule says what is too long. */
const describedBy = (form: URLSearchParams) => ({
  url: (form.get("url") ?? "").trim().slice(0, MAX_URI_LENGTH + 1),
  description: (form.get("description") ?? "").slice(0, MAX_DESCRIPTION_LENGTH + 1),
  events: form
    .getAll("event")
    .slice(0, MAX_EVENTS)
    .map((event) => event.slice(0, MAX_ID_LENGTH)),
});

/** A change sends the URL only when it changed: saving a description must not re-judge an operator's address. */
async function changeFrom(actor: Actor, id: string, form: URLSearchParams) {
  const { url, ...rest } = describedBy(form);
  const current = await webhookFor(actor, id);
  return changeWebhookFor(actor, id, url === current.url ? rest : { url, ...rest });
}

/** Does what the form asks; what the page after it shows. */
export async function runWebhookAction(
  actor: Actor,
  action: WebhookFormAction,
  form: URLSearchParams,
): Promise<WebhookFormOutcome> {
  const endpointId = endpointIdOf(form);
  switch (action) {
    case "webhook-add": {
      const { endpoint, secret } = await addWebhookFor(actor, undefined, describedBy(form));
      return { action, endpointId: endpoint.id, secret };
    }
    case "webhook-change":
      await changeFrom(actor, endpointId, form);
      return { action, endpointId };
    case "webhook-enable":
    case "webhook-disable":
      await setWebhookEnabled(actor, endpointId, action === "webhook-enable");
      return { action, endpointId };
    case "webhook-rotate":
      return { action, endpointId, secret: (await rotateWebhookSecretFor(actor, endpointId)).secret };
    case "webhook-remove":
      await removeWebhookFor(actor, endpointId);
      return { action, endpointId };
    case "webhook-replay": {
      const deliveryId = (form.get("delivery_id") ?? "").slice(0, MAX_ID_LENGTH);
      await replayWebhookDeliveryFor(actor, endpointId, deliveryId);
      return { action, endpointId, deliveryId };
    }
  }
}

/** The page's sentence for a refused rule: by its code, and for a described endpoint by the field it names first. */
function problemOf(error: WebhookError): WebhookProblem {
  switch (error.code) {
    case "invalid_webhook": {
      const field = /^(url|description|events)\b/.exec(error.message)?.[1];
      return field ? (`invalid_${field}` as WebhookProblem) : "invalid_webhook";
    }
    case "invalid_state":
      return "not_replayable";
    default:
      return error.code;
  }
}

/** The refusal as the page shows it; undefined for anything that is not a rule's refusal. */
export function webhookRefusal(
  error: unknown,
  action: WebhookFormAction,
  form: URLSearchParams,
): WebhookFormOutcome | undefined {
  if (!(error instanceof WebhookError)) return undefined;
  const typed = action === "webhook-add" || action === "webhook-change" ? describedBy(form) : undefined;
  return {
    action,
    problem: problemOf(error),
    detail: error.message.slice(0, MAX_DETAIL_LENGTH),
    ...(action === "webhook-add" ? {} : { endpointId: endpointIdOf(form) }),
    ...(typed ? { typed: { ...typed, url: typed.url.slice(0, MAX_TYPED_URL) } } : {}),
  };
}

/** The page after the form, with the outcome in the page's one-time cookie. */
export function webhookAnswer(
  location: string,
  outcome: WebhookFormOutcome,
  cookie: { name: string; path: string; secretKey: string; publicUrl: string },
): Response {
  const { name, ...options } = cookie;
  return seeOther(location, [sealedCookie(name, outcome, options)]);
}
