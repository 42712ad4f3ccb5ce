/** The audit trail of security events: sign-ins, consents, revocations, client and secret changes. */
import type { AuditEventType } from "@/lib/audit/audit-event-types";
import type { DbTransaction } from "@/lib/db/prisma";

export interface AuditEvent {
  type: AuditEventType;
  userId?: string;
  clientId?: string;
  ipAddress?: string;
  details?: Record<string, unknown>;
}

/** Records an event; pass the transaction client to record it atomically with the change it describes. */
export async function recordAuditEvent(db: DbTransaction, event: AuditEvent): Promise<void> {
  await db.auditEvent.create({
    data: {
      type: event.type,
      userId: event.userId,
      clientId: event.clientId,
      ipAddress: event.ipAddress,
      details: JSON.stringify(event.details ?? {}),
    },
  });
}
