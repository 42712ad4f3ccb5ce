/**
 * The audit trail of security events: sign-ins, consents, revocations, client and secret changes. Recording takes the
 * transaction client so that an event commits atomically with the change it describes.
 */
import type { AuditEventType } from "@/lib/store/models/audit-event";
import type { Db, DbTransaction } from "@/lib/db/prisma";

export interface AuditEvent {
  type: AuditEventType;
  userId?: string;
  clientId?: string;
  ipAddress?: string;
  details?: Record<string, unknown>;
}

/** Records an event; pass the transaction client to record it atomically with the change it describes. */
export async function recordAuditEvent(db: Pick<DbTransaction, "auditEvent">, event: AuditEvent): Promise<void> {
  await db.auditEvent.create({ data: auditRow(event) });
}

const auditRow = (event: AuditEvent) => ({
  type: event.type,
  userId: event.userId,
  clientId: event.clientId,
  ipAddress: event.ipAddress,
  details: JSON.stringify(event.details ?? {}),
});

/** Records many events at once (a bulk import), in the caller's transaction. */
export async function recordAuditEvents(db: Pick<DbTransaction, "auditEvent">, events: AuditEvent[]): Promise<void> {
  await db.auditEvent.createMany({ data: events.map(auditRow) });
}

/** What the operator pages filter the trail by; undefined is no filter. */
export interface AuditEventSelection {
  type?: string;
  clientId?: string;
  userId?: string;
  from?: Date;
  to?: Date;
}

/** The latest `take` events that match, newest first. */
export function listAuditEvents(db: Db, selection: AuditEventSelection, take: number) {
  const { type, clientId, userId, from, to } = selection;
  return db.auditEvent.findMany({
    where: { type, clientId, userId, occurredAt: from || to ? { gte: from, lte: to } : undefined },
    orderBy: { occurredAt: "desc" },
    take,
  });
}
