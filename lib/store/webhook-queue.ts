/**
 * Queues an audit event's webhook deliveries in the transaction that records it (recordAuditEvent), so that a
 * delivery exists exactly when its change committed: one delivery per enabled endpoint subscribed to the event (the
 * platform's endpoints get every event, a company's its company's), each with an outbox message of kind `webhook`
 * that the outbox worker sends. An audit event that is no webhook event costs no query. An endpoint that has
 * MAX_WAITING_WEBHOOK_DELIVERIES waiting already gets none queued: its delivery is logged as failed at once (no outbox
 * message), so that one owner's endpoints cannot pile up work for the worker without bound.
 */
import { randomBytes } from "node:crypto";
import { MAX_WAITING_WEBHOOK_DELIVERIES } from "@/lib/config/policy";
import type { DbTransaction } from "@/lib/db/prisma";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { WEBHOOK_OUTBOX_KIND, type WebhookEventType } from "@/lib/store/models/webhook";
import {
  clientCompanies,
  endpointGets,
  registrationCompanies,
  single,
  webhookEventsOf,
  webhookPayload,
  type EventCompanies,
  type EventCompany,
  type MappedWebhookEvent,
} from "@/lib/store/webhook-events";

/** A webhook-id: `msg_` and 128 random bits (no `.`, which separates the signed parts). */
const newDeliveryId = (): string => `msg_${randomBytes(16).toString("base64url")}`;

/**
 * The outbox message of one series of attempts: to the endpoint, its subject the delivery's id. It has no body: the
 * payload is the delivery's, and nothing sealed lies in the outbox for `keys reseal` or the outbox page to open.
 */
export const deliveryMessage = (delivery: { id: string; endpointId: string }) => ({
  kind: WEBHOOK_OUTBOX_KIND,
  recipient: delivery.endpointId,
  language: "",
  subject: delivery.id,
  sealedBody: null,
});

export interface SubscribedEndpoint {
  id: string;
  companyId: string | null;
  /** JSON array of event types */
  events: string;
}

export interface PlannedDelivery {
  id: string;
  endpointId: string;
  eventType: WebhookEventType;
  payload: string;
  createdAt: Date;
  queuedAt: Date;
}

/** The deliveries of one webhook event to the endpoints that get it. */
export function plannedDeliveries(
  event: MappedWebhookEvent,
  companies: EventCompanies,
  endpoints: readonly SubscribedEndpoint[],
  at: Date,
): PlannedDelivery[] {
  const payload = webhookPayload(event, companies, at);
  return endpoints
    .filter((endpoint) => endpointGets(endpoint.companyId, companies))
    .filter((endpoint) => (JSON.parse(endpoint.events) as string[]).includes(event.type))
    .map((endpoint) => ({
      id: newDeliveryId(),
      endpointId: endpoint.id,
      eventType: event.type,
      payload,
      createdAt: at,
      queuedAt: at,
    }));
}

/** The last error of a delivery that was not queued because its endpoint's backlog was full. */
export const BACKLOG_FULL_ERROR = `not queued: ${MAX_WAITING_WEBHOOK_DELIVERIES} deliveries to this endpoint were waiting`;

/**
 * The planned deliveries split into those to queue and those refused because their endpoint would have more than
 * MAX_WAITING_WEBHOOK_DELIVERIES waiting; `waiting` tells how many wait for an endpoint now.
 */
export function withinBacklog(
  deliveries: readonly PlannedDelivery[],
  waiting: ReadonlyMap<string, number>,
): { queued: PlannedDelivery[]; refused: PlannedDelivery[] } {
  const counts = new Map(waiting);
  const queued: PlannedDelivery[] = [];
  const refused: PlannedDelivery[] = [];
  for (const delivery of deliveries) {
    const count = counts.get(delivery.endpointId) ?? 0;
    if (count >= MAX_WAITING_WEBHOOK_DELIVERIES) refused.push(delivery);
    else {
      queued.push(delivery);
      counts.set(delivery.endpointId, count + 1);
    }
  }
  return { queued, refused };
}

/** A refused delivery as it is logged: failed before any attempt. */
export const refusedDelivery = (delivery: PlannedDelivery) => ({
  ...delivery,
  status: "failed" as const,
  lastError: BACKLOG_FULL_ERROR,
});

/** How many deliveries wait for each endpoint (a concurrent event may push one past the cap: a soft bound). */
async function waitingDeliveries(db: DbTransaction, endpointIds: string[]): Promise<Map<string, number>> {
  const waiting = new Map<string, number>();
  for (const endpointId of endpointIds)
    waiting.set(endpointId, await db.webhookDelivery.count({ where: { endpointId, status: "queued" } }));
  return waiting;
}

async function companiesOf(db: DbTransaction, company: EventCompany): Promise<EventCompanies> {
  if ("companyId" in company) return single(company.companyId);
  if ("userId" in company) {
    const user = await db.user.findUnique({ where: { id: company.userId }, select: { companyId: true } });
    return single(user?.companyId ?? null);
  }
  if ("clientId" in company)
    return clientCompanies(
      await db.client.findUnique({
        where: { id: company.clientId },
        select: { ownerCompanyId: true, companyId: true },
      }),
    );
  return registrationCompanies(
    await db.supplierRegistration.findUnique({
      where: { id: company.registrationId },
      select: { opticianCompanyId: true, supplierCompanyId: true },
    }),
  );
}

/** The enabled endpoints that may get an event of these companies and subscribe to one of the types. */
function candidateEndpoints(db: DbTransaction, companies: EventCompanies, types: string[]) {
  return db.webhookEndpoint.findMany({
    where: {
      enabled: true,
      OR: [{ companyId: null }, ...(companies.companyIds.length ? [{ companyId: { in: companies.companyIds } }] : [])],
      AND: [{ OR: types.map((type) => ({ events: { contains: `"${type}"` } })) }],
    },
    select: { id: true, companyId: true, events: true },
  });
}

/** Queues the deliveries of the audit event's webhook events, in the caller's transaction. */
export async function queueWebhookDeliveries(db: DbTransaction, event: AuditEvent, at = new Date()): Promise<void> {
  const mapped = webhookEventsOf(event);
  if (mapped.length === 0) return;
  // The webhook events of one audit event are about the same company.
  const companies = await companiesOf(db, mapped[0].company);
  const endpoints = await candidateEndpoints(
    db,
    companies,
    mapped.map((each) => each.type),
  );
  if (endpoints.length === 0) return;
  const deliveries = mapped.flatMap((each) => plannedDeliveries(each, companies, endpoints, at));
  if (deliveries.length === 0) return;
  const endpointIds = [...new Set(deliveries.map((delivery) => delivery.endpointId))];
  const { queued, refused } = withinBacklog(deliveries, await waitingDeliveries(db, endpointIds));
  await db.webhookDelivery.createMany({ data: [...queued, ...refused.map(refusedDelivery)] });
  if (queued.length === 0) return;
  await db.outboxMessage.createMany({
    data: queued.map((delivery) => ({ ...deliveryMessage(delivery), nextAttemptAt: at, createdAt: at })),
  });
}
