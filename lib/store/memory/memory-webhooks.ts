/**
 * Webhook endpoints and deliveries in memory, with the database store's rules (lib/store/webhook-store.ts); a mapped
 * audit event queues its deliveries as recordAuditEvent does (queueWebhooksInMemory, called by the memory audit).
 */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import type { AuditEvent, AuditEventType } from "@/lib/store/models/audit-event";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type { DeliveryPage, WebhookAttempt, WebhookEndpoint } from "@/lib/store/models/webhook";
import type { WebhookStore } from "@/lib/store/webhook-store";
import { deliveryMessage, plannedDeliveries, refusedDelivery, withinBacklog } from "@/lib/store/webhook-queue";
import {
  clientCompanies,
  registrationCompanies,
  single,
  webhookEventsOf,
  type EventCompanies,
  type EventCompany,
} from "@/lib/store/webhook-events";
import { queueInMemory } from "@/lib/store/memory/memory-outbox";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";
import type { AuditDetails } from "@/lib/store/models/audit-details";

function companiesInMemory(tables: MemoryTables, company: EventCompany): EventCompanies {
  if ("companyId" in company) return single(company.companyId);
  if ("userId" in company) return single(tables.users.get(company.userId)?.companyId ?? null);
  if ("clientId" in company) {
    const stored = tables.clients.get(company.clientId);
    return clientCompanies(
      stored ? { ownerCompanyId: stored.ownerCompanyId, companyId: stored.client.companyId } : null,
    );
  }
  return registrationCompanies(tables.registrations.get(company.registrationId) ?? null);
}

/** The deliveries' outbox messages, as the database's (no body: the subject names the delivery). */
function queueAttempt(tables: MemoryTables, delivery: { id: string; endpointId: string }, at: Date): void {
  tables.outbox.push({
    ...deliveryMessage(delivery),
    id: randomUUID(),
    status: "queued",
    attempts: 0,
    nextAttemptAt: at,
    lastError: null,
    createdAt: at,
    sentAt: null,
    claimedUntil: null,
    claimToken: null,
  });
}

export function queueWebhooksInMemory(tables: MemoryTables, event: AuditEvent, at = new Date()): void {
  const mapped = webhookEventsOf(event);
  if (mapped.length === 0) return;
  const companies = companiesInMemory(tables, mapped[0].company);
  const endpoints = [...tables.webhookEndpoints.values()]
    .filter((endpoint) => endpoint.enabled)
    .map(({ id, companyId, events }) => ({ id, companyId, events: JSON.stringify(events) }));
  const waiting = new Map<string, number>();
  for (const delivery of tables.webhookDeliveries.values())
    if (delivery.status === "queued") waiting.set(delivery.endpointId, (waiting.get(delivery.endpointId) ?? 0) + 1);
  const planned = mapped.flatMap((each) => plannedDeliveries(each, companies, endpoints, at));
  const { queued, refused } = withinBacklog(planned, waiting);
  const logged = { attempts: 0, lastStatus: null, lastAttemptAt: null, deliveredAt: null };
  for (const delivery of refused)
    tables.webhookDeliveries.set(delivery.id, { ...refusedDelivery(delivery), ...logged });
  for (const delivery of queued) {
    tables.webhookDeliveries.set(delivery.id, { ...delivery, status: "queued", lastError: null, ...logged });
    queueAttempt(tables, delivery, at);
  }
}

const newestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function attempted(tables: MemoryTables, id: string, attempt: WebhookAttempt) {
  const delivery = tables.webhookDeliveries.get(id);
  if (!delivery) return undefined;
  Object.assign(delivery, {
    attempts: delivery.attempts + 1,
    lastStatus: attempt.status,
    lastError: attempt.error,
    lastAttemptAt: attempt.at,
  });
  return { delivery, endpoint: tables.webhookEndpoints.get(delivery.endpointId)! };
}

type Audited = (type: AuditEventType, endpoint: WebhookEndpoint, by?: string, more?: AuditDetails) => Promise<void>;

export function memoryWebhookStore(tables: MemoryTables, audit: AuditStore): WebhookStore {
  const audited: Audited = (type, endpoint, by, more = {}) =>
    audit.record({
      type,
      userId: by,
      details: { webhookId: endpoint.id, ...(endpoint.companyId ? { companyId: endpoint.companyId } : {}), ...more },
    });
  const change = async (id: string, apply: (endpoint: WebhookEndpoint) => void, type: AuditEventType, by?: string) => {
    const endpoint = tables.webhookEndpoints.get(id);
    if (!endpoint) return null;
    apply(endpoint);
    await audited(type, endpoint, by);
    return copy(endpoint);
  };
  return {
    listEndpoints: async (companyId) =>
      [...tables.webhookEndpoints.values()]
        .filter((endpoint) => endpoint.companyId === companyId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map(copy),
    findEndpoint: async (id) => copy(tables.webhookEndpoints.get(id) ?? null),
    async addEndpoint(endpoint, limit, now, by) {
      const owned = [...tables.webhookEndpoints.values()].filter((each) => each.companyId === endpoint.companyId);
      if (owned.length >= limit) return "too_many";
      const row = {
        ...endpoint,
        enabled: true,
        disabledReason: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      };
      tables.webhookEndpoints.set(row.id, copy(row));
      await audited("webhook.added", row, by);
      return row;
    },
    updateEndpoint: (id, { enabled, ...rest }, now, by) =>
      change(
        id,
        (endpoint) => {
          Object.assign(endpoint, copy(rest), { updatedAt: now });
          if (enabled !== undefined) endpoint.enabled = enabled;
          if (enabled) Object.assign(endpoint, { disabledReason: null, failingSince: null });
        },
        "webhook.updated",
        by,
      ),
    replaceSecret: (id, secretSealed, now, by) =>
      change(id, (endpoint) => Object.assign(endpoint, { secretSealed, updatedAt: now }), "webhook.secret_rotated", by),
    async removeEndpoint(id, by) {
      const endpoint = tables.webhookEndpoints.get(id);
      if (!endpoint) return false;
      tables.webhookEndpoints.delete(id);
      for (const [key, delivery] of tables.webhookDeliveries)
        if (delivery.endpointId === id) tables.webhookDeliveries.delete(key);
      await audited("webhook.removed", endpoint, by);
      return true;
    },
    ...memoryDeliveryFunctions(tables, audited),
  };
}

/** The delivery side, as lib/store/webhook-delivery-store.ts. */
function memoryDeliveryFunctions(tables: MemoryTables, audited: Audited) {
  return {
    listDeliveries: async (endpointId: string, { limit, after }: DeliveryPage) =>
      [...tables.webhookDeliveries.values()]
        .filter((delivery) => delivery.endpointId === endpointId && (!after || newestFirst(delivery, after) > 0))
        .sort(newestFirst)
        .slice(0, limit + 1)
        .map(copy),
    findDelivery: async (id: string) => copy(tables.webhookDeliveries.get(id) ?? null),
    async replay(id: string, now: Date, by?: string) {
      const delivery = tables.webhookDeliveries.get(id);
      if (!delivery) return null;
      if (delivery.status === "queued") return "queued" as const;
      Object.assign(delivery, { status: "queued", queuedAt: now, deliveredAt: null });
      queueAttempt(tables, delivery, now);
      await audited("webhook.replayed", tables.webhookEndpoints.get(delivery.endpointId)!, by, { deliveryId: id });
      return copy(delivery);
    },
    async toSend(id: string) {
      const delivery = tables.webhookDeliveries.get(id);
      const endpoint = delivery && tables.webhookEndpoints.get(delivery.endpointId);
      return delivery && endpoint ? copy({ delivery, endpoint }) : null;
    },
    async recordAttempt(id: string, attempt: WebhookAttempt) {
      const found = attempted(tables, id, attempt);
      if (!found) return;
      if (attempt.delivered) Object.assign(found.delivery, { status: "delivered", deliveredAt: attempt.at });
      if (attempt.delivered) found.endpoint.failingSince = null;
      else found.endpoint.failingSince ??= attempt.at;
    },
    async giveUp(id: string, attempt: WebhookAttempt, reason: string, mail: NewOutboxMessage[]) {
      const found = attempted(tables, id, attempt);
      if (!found) return false;
      found.delivery.status = "failed";
      const { endpoint } = found;
      if (!endpoint.enabled || !endpoint.failingSince) return false;
      Object.assign(endpoint, { enabled: false, disabledReason: reason, updatedAt: attempt.at });
      await audited("webhook.disabled", endpoint);
      for (const each of mail) queueInMemory(tables, each, attempt.at);
      return true;
    },
    ownersOf: async (companyId: string | null) =>
      [...tables.users.values()]
        .filter((user) => user.role === "admin" && user.active)
        .filter((user) =>
          companyId ? user.companyId === companyId : tables.companies.get(user.companyId)?.kind === "operator",
        )
        .sort((a, b) => (a.email < b.email ? -1 : 1))
        .map(({ email, preferredLanguage }) => ({ email, preferredLanguage })),
    async purgeDeliveries(before: Date) {
      let count = 0;
      for (const [key, delivery] of tables.webhookDeliveries)
        if (delivery.createdAt < before && delivery.status !== "queued") {
          tables.webhookDeliveries.delete(key);
          count++;
        }
      return count;
    },
  };
}
