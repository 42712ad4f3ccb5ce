/** Webhook endpoints' and deliveries' rows as the stores hand them out, and the audit event of an endpoint's change. */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEventType } from "@/lib/store/models/audit-event";
import {
  isWebhookEventType,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
} from "@/lib/store/models/webhook";
import type { AuditDetails } from "@/lib/store/models/audit-details";

type EndpointRow = NonNullable<Awaited<ReturnType<Db["webhookEndpoint"]["findUnique"]>>>;
type DeliveryRow = NonNullable<Awaited<ReturnType<Db["webhookDelivery"]["findUnique"]>>>;

export function endpointOfRow(row: EndpointRow): WebhookEndpoint {
  return { ...row, events: (JSON.parse(row.events) as unknown[]).filter(isWebhookEventType) };
}

export const deliveryOfRow = (row: DeliveryRow): WebhookDelivery => ({
  ...row,
  status: row.status as WebhookDeliveryStatus,
});

/** The audit event of an endpoint's change, naming it and its company. */
export const endpointEvent = (
  tx: DbTransaction,
  type: AuditEventType,
  endpoint: { id: string; companyId: string | null },
  by?: string,
  more: AuditDetails = {},
) =>
  recordAuditEvent(tx, {
    type,
    userId: by,
    details: { webhookId: endpoint.id, ...(endpoint.companyId ? { companyId: endpoint.companyId } : {}), ...more },
  });
