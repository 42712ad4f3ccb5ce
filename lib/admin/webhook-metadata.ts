/**
 * A webhook endpoint as its owner describes it (the pages' forms and the management API's JSON): `url`, https and not
 * at a non-public address (an operator's may be in OUTBOUND_ALLOW's ranges, a company's never; names are checked
 * again where each delivery connects, so a name that resolves inward is refused then), `description`, the `events`
 * it subscribes to, and, when changing it, `enabled`. Anything else, or too long, is refused with WebhookError.
 */
import { NO_ADDRESS_RANGES, type AddressRanges } from "@/lib/config/address-ranges";
import { MAX_DESCRIPTION_LENGTH, MAX_URI_LENGTH } from "@/lib/config/policy";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";
import { nonPublicHostProblem } from "@/lib/http/public-address";
import { isFetchableScheme } from "@/lib/http/url-policy";
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointChange,
  type WebhookEventType,
} from "@/lib/store/models/webhook";

export type WebhookErrorCode = "invalid_webhook" | "not_found" | "too_many" | "invalid_state";

export class WebhookError extends OptiGateError<WebhookErrorCode> {
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new WebhookError("invalid_webhook", message);

/** Where deliveries may go: the deployment's rule for https, and the ranges an operator's endpoint may reach. */
export interface WebhookUrlRules {
  production: boolean;
  outboundAllow: AddressRanges;
  byOperator: boolean;
}

function checkWebhookUrl(value: unknown, rules: WebhookUrlRules): string {
  if (typeof value !== "string" || value.length === 0) throw invalid("url must be a URL");
  if (value.length > MAX_URI_LENGTH) throw invalid(`url must be at most ${MAX_URI_LENGTH} characters`);
  if (!PRINTABLE_ASCII.test(value)) throw invalid("url must be printable ASCII without spaces");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("url must be an absolute URL");
  }
  if (url.username || url.password) throw invalid("url must not contain user credentials");
  if (url.hash) throw invalid("url must not contain a fragment (#)");
  if (!isFetchableScheme(url, rules.production)) throw invalid("url must use https");
  const problem = nonPublicHostProblem(url.hostname, rules.byOperator ? rules.outboundAllow : NO_ADDRESS_RANGES);
  if (problem) throw invalid(`url must be at a public address: ${problem}`);
  return value;
}

function checkDescription(value: unknown): string {
  if (typeof value !== "string") throw invalid("description must be a text");
  if (value.length > MAX_DESCRIPTION_LENGTH)
    throw invalid(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid("description must be one line of text");
  return value.trim();
}

function checkEvents(value: unknown): WebhookEventType[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > WEBHOOK_EVENT_TYPES.length * 2)
    throw invalid(`events must list one or more of ${WEBHOOK_EVENT_TYPES.join(", ")}`);
  const unknown = value.find((type) => !isWebhookEventType(type));
  if (unknown !== undefined)
    throw invalid(`events: ${JSON.stringify(unknown).slice(0, 60)} is not one of ${WEBHOOK_EVENT_TYPES.join(", ")}`);
  // In the order of the list of event types, once each.
  return WEBHOOK_EVENT_TYPES.filter((type) => value.includes(type));
}

const FIELDS = { create: ["url", "description", "events"], change: ["url", "description", "events", "enabled"] };

/** A new endpoint's description: url and events required. */
export function parseNewWebhook(input: Record<string, unknown>, rules: WebhookUrlRules) {
  refuseOtherFields(input, FIELDS.create);
  return {
    url: checkWebhookUrl(input.url, rules),
    description: input.description === undefined ? "" : checkDescription(input.description),
    events: checkEvents(input.events),
  };
}

/** A change: only the fields given; a new url is checked for who changes it. */
export function parseWebhookChange(input: Record<string, unknown>, rules: WebhookUrlRules): WebhookEndpointChange {
  refuseOtherFields(input, FIELDS.change);
  if (input.enabled !== undefined && typeof input.enabled !== "boolean") throw invalid("enabled must be true or false");
  return {
    ...(input.url !== undefined
      ? { url: checkWebhookUrl(input.url, rules), registeredByOperator: rules.byOperator }
      : {}),
    ...(input.description !== undefined ? { description: checkDescription(input.description) } : {}),
    ...(input.events !== undefined ? { events: checkEvents(input.events) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled as boolean } : {}),
  };
}

function refuseOtherFields(input: Record<string, unknown>, allowed: readonly string[]): void {
  const other = Object.keys(input).find((field) => !allowed.includes(field));
  if (other !== undefined) throw invalid(`${other.slice(0, 60)} is not a field of a webhook (${allowed.join(", ")})`);
}
