/** The audit trail of security events: sign-ins, consents, revocations, client and secret changes. */
import type { Db, Prisma } from "@/lib/db/prisma";

export type AuditEventType =
  | "sign_in.succeeded"
  | "sign_in.failed"
  | "consent.granted"
  | "consent.revoked"
  | "token.revoked"
  | "client.registered"
  | "client.updated"
  | "client.removed"
  | "client.secret_added"
  | "client.secret_disabled"
  | "client.secret_expiry_set"
  | "signing_key.rotated"
  | "catalog.imported"
  | "catalog.released";

export const AUDIT_EVENT_TYPES: AuditEventType[] = [
  "sign_in.succeeded",
  "sign_in.failed",
  "consent.granted",
  "consent.revoked",
  "token.revoked",
  "client.registered",
  "client.updated",
  "client.removed",
  "client.secret_added",
  "client.secret_disabled",
  "client.secret_expiry_set",
  "signing_key.rotated",
  "catalog.imported",
  "catalog.released",
];

export interface AuditEvent {
  type: AuditEventType;
  userId?: string;
  clientId?: string;
  ipAddress?: string;
  details?: Record<string, unknown>;
}

/** Records an event; pass the transaction client to record it atomically with the change it describes. */
export async function recordAuditEvent(db: Db | Prisma.TransactionClient, event: AuditEvent): Promise<void> {
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
