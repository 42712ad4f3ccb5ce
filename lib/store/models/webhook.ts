/**
 * Webhooks as the stores keep them (Standard Webhooks): the events there are, an endpoint that receives some of them
 * (the platform's, or a company's), and each delivery of an event to an endpoint with the outcome of its last attempt.
 */

/** The events an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "user.created",
  "user.deactivated",
  "user.erased",
  "invitation.accepted",
  "client.pending",
  "client.approved",
  "consent.revoked",
  "catalog.released",
  "registration.decided",
  "signin.failed.locked",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: unknown): value is WebhookEventType =>
  WEBHOOK_EVENT_TYPES.includes(value as WebhookEventType);

/** The outbox message kind of a delivery's attempts: recipient the endpoint's id, body the delivery's id. */
export const WEBHOOK_OUTBOX_KIND = "webhook";

export interface WebhookEndpoint {
  id: string;
  /** null: the platform's endpoint, which gets every event */
  companyId: string | null;
  url: string;
  description: string;
  events: WebhookEventType[];
  /** the whsec_… secret, sealed with SECRET_KEY */
  secretSealed: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  registeredByOperator: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewWebhookEndpoint {
  id: string;
  companyId: string | null;
  url: string;
  description: string;
  events: WebhookEventType[];
  secretSealed: string;
  registeredByOperator: boolean;
}

/** What an owner may change; enabling clears why it was off and since when it failed. */
export interface WebhookEndpointChange {
  url?: string;
  description?: string;
  events?: WebhookEventType[];
  enabled?: boolean;
  registeredByOperator?: boolean;
}

export type WebhookDeliveryStatus = "queued" | "delivered" | "failed";

export interface WebhookDelivery {
  /** the webhook-id (msg_…) */
  id: string;
  endpointId: string;
  eventType: string;
  /** the JSON body as sent and signed */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  queuedAt: Date;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** The outcome of one attempt, as the delivery log keeps it. */
export interface WebhookAttempt {
  at: Date;
  delivered: boolean;
  /** the HTTP status; null when no answer came */
  status: number | null;
  error: string | null;
}

/** One page of an endpoint's deliveries, newest first: `limit` + 1 are read after the key of the last one shown. */
export interface DeliveryPage {
  limit: number;
  after?: { createdAt: Date; id: string };
}
