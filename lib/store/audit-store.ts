/**
 * The audit trail of security events: sign-ins, consents, revocations, client and secret changes. The stores that
 * change something record its event in the same transaction (`recordAuditEvent` with their transaction client), so
 * an event commits atomically with the change it describes.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { AuditEvent, RecordedAuditEvent } from "@/lib/store/models/audit-event";
import { actingClient } from "@/lib/store/audit-attribution";

/** What the operator pages filter the trail by; undefined is no filter. */
interface AuditEventSelection {
  type?: string;
  clientId?: string;
  userId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditStore {
  /** Records an event that stands alone (no other change commits with it). */
  record(event: AuditEvent): Promise<void>;
  /** The latest `take` events that match, newest first. */
  list(selection: AuditEventSelection, take: number): Promise<RecordedAuditEvent[]>;
}

function auditRow(event: AuditEvent) {
  const byClientId = actingClient();
  return {
    type: event.type,
    userId: event.userId,
    clientId: event.clientId,
    ipAddress: event.ipAddress,
    details: JSON.stringify(byClientId ? { ...event.details, byClientId } : (event.details ?? {})),
  };
}

/** Records an event in the caller's transaction, atomically with the change it describes. */
export async function recordAuditEvent(db: Pick<DbTransaction, "auditEvent">, event: AuditEvent): Promise<void> {
  await db.auditEvent.create({ data: auditRow(event) });
}

/** Records many events at once (a bulk import), in the caller's transaction. */
export async function recordAuditEvents(db: Pick<DbTransaction, "auditEvent">, events: AuditEvent[]): Promise<void> {
  await db.auditEvent.createMany({ data: events.map(auditRow) });
}

export function prismaAuditStore(db: Db): AuditStore {
  return {
    record: (event) => recordAuditEvent(db, event),
    list({ type, clientId, userId, from, to }, take) {
      return db.auditEvent.findMany({
        where: { type, clientId, userId, occurredAt: from || to ? { gte: from, lte: to } : undefined },
        orderBy: { occurredAt: "desc" },
        take,
      });
    },
  };
}
