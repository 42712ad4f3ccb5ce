/** The audit trail as the operator pages filter it: by event type, client, user (email), and time range. */
import { AUDIT_EVENT_TYPES } from "@/lib/store/models/audit-event";
import type { ServiceContext } from "@/lib/service-context";

const AUDIT_PAGE_SIZE = 100;

export interface AuditFilter {
  type?: string;
  clientId?: string;
  email?: string;
  from?: string;
  to?: string;
}

export interface AuditRow {
  id: string;
  occurredAt: Date;
  type: string;
  email: string | null;
  clientId: string | null;
  details: string;
}

/** The start or end of a calendar day given as YYYY-MM-DD; anything else (2026-99-99, 2026-02-30) is no filter. */
function day(value: string | undefined, endOfDay: boolean): Date | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? date : undefined;
}

export async function findAuditEvents(
  { stores }: Pick<ServiceContext, "stores">,
  filter: AuditFilter,
): Promise<AuditRow[]> {
  const userId = filter.email ? await stores.users.findIdByEmail(filter.email.trim().toLowerCase()) : undefined;
  if (filter.email && !userId) return [];
  const events = await stores.audit.list(
    {
      type: filter.type && (AUDIT_EVENT_TYPES as readonly string[]).includes(filter.type) ? filter.type : undefined,
      clientId: filter.clientId?.trim() || undefined,
      userId: userId ?? undefined,
      from: day(filter.from, false),
      to: day(filter.to, true),
    },
    AUDIT_PAGE_SIZE,
  );
  const emails = await stores.users.findEmails([
    ...new Set(events.map((e) => e.userId).filter((id): id is string => id !== null)),
  ]);
  return events.map((event) => ({
    id: event.id,
    occurredAt: event.occurredAt,
    type: event.type,
    email: event.userId ? (emails.get(event.userId) ?? event.userId) : null,
    clientId: event.clientId,
    details: event.details,
  }));
}
