/**
 * Webhook endpoints and their deliveries (Standard Webhooks). An endpoint is the platform's (no company: every
 * event) or a company's; each change is audited in its transaction. Deliveries are queued with the audit event they
 * come from (webhook-queue.ts); the outbox worker reads one to send it, records each attempt, and gives up after the
 * retry window, which turns the endpoint off and mails its owners in one transaction (webhook-delivery-store.ts).
 */
import type { Db } from "@/lib/db/prisma";
import type { AuditEventType } from "@/lib/store/models/audit-event";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type {
  DeliveryPage,
  NewWebhookEndpoint,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointChange,
} from "@/lib/store/models/webhook";
import { endpointEvent, endpointOfRow } from "@/lib/store/webhook-rows";
import { deliveryStoreFunctions, type DeliveryToSend, type WebhookOwner } from "@/lib/store/webhook-delivery-store";

export interface WebhookStore {
  /** The platform's endpoints (null) or a company's, oldest first. */
  listEndpoints(companyId: string | null): Promise<WebhookEndpoint[]>;
  findEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** Adds an endpoint, audited; "too_many" (nothing written) when its owner has `limit` already. */
  addEndpoint(
    endpoint: NewWebhookEndpoint,
    limit: number,
    now: Date,
    by?: string,
  ): Promise<WebhookEndpoint | "too_many">;
  /** Changes an endpoint, audited; turning it on clears why it was off and since when it failed. Null: none. */
  updateEndpoint(id: string, change: WebhookEndpointChange, now: Date, by?: string): Promise<WebhookEndpoint | null>;
  /** Replaces its sealed secret, audited; null when there is no such endpoint. */
  replaceSecret(id: string, secretSealed: string, now: Date, by?: string): Promise<WebhookEndpoint | null>;
  /** Removes it with its deliveries (their queued attempts find nothing to send), audited; false when none. */
  removeEndpoint(id: string, by?: string): Promise<boolean>;
  /** A page of the endpoint's deliveries, newest first (limit + 1 read, to tell whether more follow). */
  listDeliveries(endpointId: string, page: DeliveryPage): Promise<WebhookDelivery[]>;
  findDelivery(id: string): Promise<WebhookDelivery | null>;
  /** Queues a delivery again (same webhook-id), audited; "queued" when it waits already, null when there is none. */
  replay(id: string, now: Date, by?: string): Promise<WebhookDelivery | "queued" | null>;
  /** A delivery with what sending it needs, or null when it is gone (its endpoint removed). */
  toSend(id: string): Promise<DeliveryToSend | null>;
  /** Records an attempt: delivered, or failed and still queued; the endpoint's failing_since follows. */
  recordAttempt(id: string, attempt: WebhookAttempt): Promise<void>;
  /**
   * Records the last attempt and fails the delivery; turns its endpoint off (`reason`) when it is on and has been
   * failing, auditing it and queueing `mail` in the same transaction. Whether this turned the endpoint off.
   */
  giveUp(id: string, attempt: WebhookAttempt, reason: string, mail: NewOutboxMessage[]): Promise<boolean>;
  /** Whom to tell of a company's endpoint (its active administrators), or of the platform's (the operator's). */
  ownersOf(companyId: string | null): Promise<WebhookOwner[]>;
  /** Deletes deliveries made before `before` that no longer wait; how many. */
  purgeDeliveries(before: Date): Promise<number>;
}

async function addEndpoint(db: Db, endpoint: NewWebhookEndpoint, limit: number, now: Date, by?: string) {
  return db.$transaction(async (tx) => {
    if ((await tx.webhookEndpoint.count({ where: { companyId: endpoint.companyId } })) >= limit)
      return "too_many" as const;
    const row = await tx.webhookEndpoint.create({
      data: { ...endpoint, events: JSON.stringify(endpoint.events), createdAt: now, updatedAt: now },
    });
    await endpointEvent(tx, "webhook.added", row, by);
    return endpointOfRow(row);
  });
}

function changedColumns(change: WebhookEndpointChange, now: Date) {
  const { events, enabled, ...rest } = change;
  return {
    ...rest,
    ...(events ? { events: JSON.stringify(events) } : {}),
    ...(enabled === undefined ? {} : { enabled }),
    ...(enabled ? { disabledReason: null, failingSince: null } : {}),
    updatedAt: now,
  };
}

async function changeEndpoint(
  db: Db,
  id: string,
  data: ReturnType<typeof changedColumns> | { secretSealed: string; updatedAt: Date },
  type: AuditEventType,
  by?: string,
): Promise<WebhookEndpoint | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({ where: { id }, data });
    if (count === 0) return null;
    const row = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    await endpointEvent(tx, type, row, by);
    return endpointOfRow(row);
  });
}

async function removeEndpoint(db: Db, id: string, by?: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.findUnique({ where: { id }, select: { id: true, companyId: true } });
    if (!row) return false;
    await tx.webhookEndpoint.delete({ where: { id } });
    await endpointEvent(tx, "webhook.removed", row, by);
    return true;
  });
}

export function prismaWebhookStore(db: Db): WebhookStore {
  return {
    async listEndpoints(companyId) {
      const rows = await db.webhookEndpoint.findMany({
        where: { companyId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      return rows.map(endpointOfRow);
    },
    async findEndpoint(id) {
      const row = await db.webhookEndpoint.findUnique({ where: { id } });
      return row && endpointOfRow(row);
    },
    addEndpoint: (endpoint, limit, now, by) => addEndpoint(db, endpoint, limit, now, by),
    updateEndpoint: (id, change, now, by) => changeEndpoint(db, id, changedColumns(change, now), "webhook.updated", by),
    replaceSecret: (id, secretSealed, now, by) =>
      changeEndpoint(db, id, { secretSealed, updatedAt: now }, "webhook.secret_rotated", by),
    removeEndpoint: (id, by) => removeEndpoint(db, id, by),
    ...deliveryStoreFunctions(db),
  };
}
