/**
 * The delivery side of the webhook store: the delivery log of an endpoint (newest first, in pages), a replay (the same
 * webhook-id queued again, once: a delivery that waits already is not queued twice), and what the outbox worker
 * reads and writes for each attempt. An endpoint's failing_since is the first failed attempt since the last
 * delivered one; giving up turns the endpoint off only while it is on and failing, so its owners are mailed once.
 */
import type { Db } from "@/lib/db/prisma";
import { transactionWithMail } from "@/lib/store/mail-transaction";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type { DeliveryPage, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "@/lib/store/models/webhook";
import { deliveryOfRow, endpointEvent, endpointOfRow } from "@/lib/store/webhook-rows";
import { deliveryMessage } from "@/lib/store/webhook-queue";

export interface DeliveryToSend {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
}

/** Someone told when an endpoint is turned off, in their language. */
export interface WebhookOwner {
  email: string;
  preferredLanguage: string | null;
}

async function listDeliveries(db: Db, endpointId: string, { limit, after }: DeliveryPage) {
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpointId,
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  return rows.map(deliveryOfRow);
}

async function replay(db: Db, id: string, now: Date, by?: string): Promise<WebhookDelivery | "queued" | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id, status: { not: "queued" } },
      data: { status: "queued", queuedAt: now, deliveredAt: null },
    });
    const row = await tx.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
    if (!row) return null;
    if (count === 0) return "queued" as const;
    const { endpoint, ...delivery } = row;
    await tx.outboxMessage.create({ data: { ...deliveryMessage(delivery), nextAttemptAt: now, createdAt: now } });
    await endpointEvent(tx, "webhook.replayed", endpoint, by, { deliveryId: id });
    return deliveryOfRow(delivery);
  });
}

const attemptColumns = (attempt: WebhookAttempt) => ({
  attempts: { increment: 1 },
  lastStatus: attempt.status,
  lastError: attempt.error,
  lastAttemptAt: attempt.at,
});

async function recordAttempt(db: Db, id: string, attempt: WebhookAttempt): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.webhookDelivery.findUnique({ where: { id }, select: { endpointId: true } });
    if (!row) return;
    await tx.webhookDelivery.update({
      where: { id },
      data: {
        ...attemptColumns(attempt),
        ...(attempt.delivered ? { status: "delivered", deliveredAt: attempt.at } : {}),
      },
    });
    if (attempt.delivered)
      await tx.webhookEndpoint.updateMany({
        where: { id: row.endpointId, failingSince: { not: null } },
        data: { failingSince: null },
      });
    else
      await tx.webhookEndpoint.updateMany({
        where: { id: row.endpointId, failingSince: null },
        data: { failingSince: attempt.at },
      });
  });
}

async function giveUp(
  db: Db,
  id: string,
  attempt: WebhookAttempt,
  reason: string,
  mail: NewOutboxMessage[],
): Promise<boolean> {
  return transactionWithMail(db, async (tx, queueMail) => {
    const row = await tx.webhookDelivery.findUnique({ where: { id }, select: { endpointId: true } });
    if (!row) return false;
    await tx.webhookDelivery.update({ where: { id }, data: { ...attemptColumns(attempt), status: "failed" } });
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: row.endpointId, enabled: true, failingSince: { not: null } },
      data: { enabled: false, disabledReason: reason, updatedAt: attempt.at },
    });
    if (count === 0) return false;
    const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: row.endpointId } });
    await endpointEvent(tx, "webhook.disabled", endpoint);
    await queueMail(mail, attempt.at);
    return true;
  });
}

function ownersOf(db: Db, companyId: string | null): Promise<WebhookOwner[]> {
  return db.user.findMany({
    where: { role: "admin", active: true, ...(companyId ? { companyId } : { company: { kind: "operator" } }) },
    select: { email: true, preferredLanguage: true },
    orderBy: { email: "asc" },
  });
}

export function deliveryStoreFunctions(db: Db) {
  return {
    listDeliveries: (endpointId: string, page: DeliveryPage) => listDeliveries(db, endpointId, page),
    async findDelivery(id: string) {
      const row = await db.webhookDelivery.findUnique({ where: { id } });
      return row && deliveryOfRow(row);
    },
    replay: (id: string, now: Date, by?: string) => replay(db, id, now, by),
    async toSend(id: string): Promise<DeliveryToSend | null> {
      const row = await db.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
      if (!row) return null;
      const { endpoint, ...delivery } = row;
      return { delivery: deliveryOfRow(delivery), endpoint: endpointOfRow(endpoint) };
    },
    recordAttempt: (id: string, attempt: WebhookAttempt) => recordAttempt(db, id, attempt),
    giveUp: (id: string, attempt: WebhookAttempt, reason: string, mail: NewOutboxMessage[]) =>
      giveUp(db, id, attempt, reason, mail),
    ownersOf: (companyId: string | null) => ownersOf(db, companyId),
    async purgeDeliveries(before: Date) {
      const { count } = await db.webhookDelivery.deleteMany({
        where: { createdAt: { lt: before }, status: { not: "queued" } },
      });
      return count;
    },
  };
}
