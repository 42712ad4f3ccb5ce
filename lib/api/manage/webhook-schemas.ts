/**
 * The management API's schemas of webhooks: an endpoint as its owner describes it and as the API shows it (never its
 * secret, except once in the answer that makes it), and a delivery of the delivery log with its payload.
 */
import { MAX_DESCRIPTION_LENGTH, MAX_URI_LENGTH } from "@/lib/config/policy";
import { WEBHOOK_EVENT_TYPES } from "@/lib/store/models/webhook";

const EVENTS = {
  type: "array",
  minItems: 1,
  items: { enum: [...WEBHOOK_EVENT_TYPES] },
  description: "The events it subscribes to.",
};

const DESCRIBED = {
  url: {
    type: "string",
    format: "uri",
    maxLength: MAX_URI_LENGTH,
    description: "https, at a public address (an operator's endpoint may be in OUTBOUND_ALLOW's ranges).",
  },
  description: { type: "string", maxLength: MAX_DESCRIPTION_LENGTH },
  events: EVENTS,
};

const dateTime = { type: "string", format: "date-time" };
const orNull = (schema: object) => ({ oneOf: [schema, { type: "null" }] });

const WEBHOOK_PROPERTIES = {
  id: { type: "string" },
  company_id: { type: ["string", "null"], description: "null: the platform's endpoint, which gets every event." },
  ...DESCRIBED,
  enabled: { type: "boolean" },
  disabled_reason: {
    type: ["string", "null"],
    description: "Why OptiGate turned it off (deliveries failed for 24 h); null when on or turned off by its owner.",
  },
  failing_since: orNull(dateTime),
  registered_by_operator: { type: "boolean" },
  created_at: dateTime,
  updated_at: dateTime,
};

const WEBHOOK_REQUIRED = Object.keys(WEBHOOK_PROPERTIES);

export const WEBHOOK_SCHEMAS = {
  WebhookDescription: {
    type: "object",
    required: ["url", "events"],
    additionalProperties: false,
    properties: DESCRIBED,
  },
  WebhookChange: {
    type: "object",
    description: "The fields to change; enabled: true turns it on again and clears disabled_reason.",
    additionalProperties: false,
    properties: { ...DESCRIBED, enabled: { type: "boolean" } },
  },
  Webhook: {
    type: "object",
    required: WEBHOOK_REQUIRED,
    additionalProperties: false,
    properties: WEBHOOK_PROPERTIES,
  },
  WebhookWithSecret: {
    type: "object",
    description: "The endpoint and its secret, shown in this answer only: keep it to verify deliveries.",
    required: [...WEBHOOK_REQUIRED, "secret"],
    additionalProperties: false,
    properties: {
      ...WEBHOOK_PROPERTIES,
      secret: { type: "string", pattern: "^whsec_[A-Za-z0-9+/]+={0,2}$" },
    },
  },
  WebhookDelivery: {
    type: "object",
    required: [
      "id",
      "webhook_id",
      "event_type",
      "status",
      "attempts",
      "last_status",
      "last_error",
      "created_at",
      "last_attempt_at",
      "delivered_at",
      "payload",
    ],
    additionalProperties: false,
    properties: {
      id: { type: "string", description: "The webhook-id header of every attempt and replay." },
      webhook_id: { type: "string" },
      event_type: { enum: [...WEBHOOK_EVENT_TYPES] },
      status: { enum: ["queued", "delivered", "failed"] },
      attempts: { type: "integer", minimum: 0 },
      last_status: { type: ["integer", "null"], description: "The HTTP status of the last attempt." },
      last_error: { type: ["string", "null"] },
      created_at: dateTime,
      last_attempt_at: orNull(dateTime),
      delivered_at: orNull(dateTime),
      payload: {
        type: "object",
        required: ["type", "timestamp", "data"],
        properties: { type: { type: "string" }, timestamp: dateTime, data: { type: "object" } },
      },
    },
  },
};
