/**
 * The audit trail of security events: sign-ins, consents, revocations, client and secret changes. The stores that
 * change something record its event in the same transaction (`recordAuditEvent` with their transaction client), so
 * an event commits atomically with the change it describes. The trail is read newest first by (occurred_at, id), a
 * keyset: a page or an export slice starts after the position of the last event read, and events recorded meanwhile
 * cause neither duplicates nor gaps. Old events are purged in batches (the retention, AUDIT_RETENTION_DAYS).
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type {
  AuditEvent,
  AuditEventFilter,
  AuditPageRequest,
  AuditPosition,
  RecordedAuditEvent,
} from "@/lib/store/models/audit-event";
import { actingClient } from "@/lib/store/audit-attribution";
import { queueWebhookDeliveries } from "@/lib/store/webhook-queue";
import { addActivity } from "@/lib/db/statements/activity-counts";
import { signInActivityOf, type ActivityIncrement } from "@/lib/store/models/activity";

/** What the store contract reads exactly (type, client, user and time); undefined is no filter. */
interface AuditEventSelection {
  type?: string;
  clientId?: string;
  userId?: string;
  from?: Date;
  to?: Date;
}

/** One response of the export: its events, read from the database in chunks as they are consumed. */
export interface AuditExportSlice {
  events: AsyncIterable<RecordedAuditEvent>;
  /** The position of the slice's last event when more follow; null at the end. */
  next: AuditPosition | null;
}

export interface AuditStore {
  /** Records an event that stands alone (no other change commits with it). */
  record(event: AuditEvent): Promise<void>;
  /** The latest `take` events that match exactly, newest first. */
  list(selection: AuditEventSelection, take: number): Promise<RecordedAuditEvent[]>;
  /** A page of the events the filter selects, newest first (see AuditPageRequest). */
  page(filter: AuditEventFilter, request: AuditPageRequest): Promise<RecordedAuditEvent[]>;
  /** At most `take` events older than `olderThan` (from the newest without it), newest first, and where more follow. */
  exportSlice(
    filter: AuditEventFilter,
    request: { take: number; olderThan?: AuditPosition },
  ): Promise<AuditExportSlice>;
  /** Deletes at most `batch` of the events recorded before `before`, oldest first; how many it deleted. */
  purgeBefore(before: Date, batch: number): Promise<number>;
}

/** The company the event concerns: its own, or the one its details name. */
function companyOf(event: AuditEvent): string | undefined {
  const named = event.details?.companyId;
  return event.companyId ?? (typeof named === "string" ? named : undefined);
}

/** An event's columns; the management client of the call under way (if any) is named as the one that acted. */
export function auditColumns(event: AuditEvent) {
  return {
    type: event.type,
    userId: event.userId ?? null,
    clientId: event.clientId ?? null,
    companyId: companyOf(event) ?? null,
    byClientId: actingClient() ?? null,
    ipAddress: event.ipAddress ?? null,
    details: JSON.stringify(event.details ?? {}),
  };
}

/**
 * What a sign-in's audit event adds to the activity, for the user's company: the event's own, or the user's as
 * `companyOfUser` finds it (a sign-in recorded without it), or none ('').
 */
export async function signInIncrements(
  event: AuditEvent,
  companyOfUser: (userId: string) => Promise<string | undefined>,
  at = new Date(),
): Promise<ActivityIncrement[]> {
  const kinds = signInActivityOf(event);
  if (kinds.length === 0) return [];
  const companyId = auditColumns(event).companyId ?? (event.userId ? await companyOfUser(event.userId) : undefined);
  return kinds.map((kind) => ({ at, companyId: companyId ?? "", kind, count: 1 }));
}

/** Records an event in the caller's transaction, atomically with the change it describes. */
export async function recordAuditEvent(db: DbTransaction, event: AuditEvent): Promise<void> {
  await db.auditEvent.create({ data: auditColumns(event) });
  await queueWebhookDeliveries(db, event);
}

/** Records many events at once (a bulk import), in the caller's transaction. */
export async function recordAuditEvents(db: DbTransaction, events: AuditEvent[]): Promise<void> {
  await db.auditEvent.createMany({ data: events.map(auditColumns) });
  for (const event of events) await queueWebhookDeliveries(db, event);
}

type AuditWhere = NonNullable<NonNullable<Parameters<Db["auditEvent"]["findMany"]>[0]>["where"]>;

function filterWhere({ actor, companyId, kind, from, to }: AuditEventFilter): AuditWhere[] {
  return [
    ...(actor !== undefined ? [{ OR: [{ userId: actor }, { byClientId: actor }, { clientId: actor }] }] : []),
    ...(companyId !== undefined ? [{ companyId }] : []),
    ...(kind !== undefined ? [{ type: kind.endsWith(".") ? { startsWith: kind } : kind }] : []),
    ...(from !== undefined ? [{ occurredAt: { gte: from } }] : []),
    ...(to !== undefined ? [{ occurredAt: { lt: to } }] : []),
  ];
}

/**
 * Beyond a position in either direction. The plain bound on occurred_at lets the database start its index scan at
 * the position instead of walking every newer (or older) event to filter it out.
 */
function beyond({ occurredAt, id }: AuditPosition, direction: "older" | "newer"): AuditWhere[] {
  return direction === "older"
    ? [{ occurredAt: { lte: occurredAt } }, { OR: [{ occurredAt: { lt: occurredAt } }, { id: { lt: id } }] }]
    : [{ occurredAt: { gte: occurredAt } }, { OR: [{ occurredAt: { gt: occurredAt } }, { id: { gt: id } }] }];
}

const NEWEST_FIRST = [{ occurredAt: "desc" as const }, { id: "desc" as const }];
const OLDEST_FIRST = [{ occurredAt: "asc" as const }, { id: "asc" as const }];
/** How many events the export reads from the database at once. */
const EXPORT_CHUNK = 1000;

async function readPage(db: Db, filter: AuditEventFilter, { take, olderThan, newerThan }: AuditPageRequest) {
  if (newerThan) {
    const nearest = await db.auditEvent.findMany({
      where: { AND: [...filterWhere(filter), ...beyond(newerThan, "newer")] },
      orderBy: OLDEST_FIRST,
      take,
    });
    return nearest.reverse();
  }
  return db.auditEvent.findMany({
    where: { AND: [...filterWhere(filter), ...(olderThan ? beyond(olderThan, "older") : [])] },
    orderBy: NEWEST_FIRST,
    take,
  });
}

/**
 * The slice's positions first (two small columns, one query), so that `next` is known before the first event is
 * sent; then the events by id, a chunk at a time. An event erased in between is left out; none is read twice.
 */
async function readExportSlice(
  db: Db,
  filter: AuditEventFilter,
  { take, olderThan }: { take: number; olderThan?: AuditPosition },
): Promise<AuditExportSlice> {
  const positions = await db.auditEvent.findMany({
    where: { AND: [...filterWhere(filter), ...(olderThan ? beyond(olderThan, "older") : [])] },
    orderBy: NEWEST_FIRST,
    take: take + 1,
    select: { id: true, occurredAt: true },
  });
  const slice = positions.slice(0, take);
  async function* events() {
    for (let start = 0; start < slice.length; start += EXPORT_CHUNK) {
      const ids = slice.slice(start, start + EXPORT_CHUNK).map((position) => position.id);
      const rows = new Map((await db.auditEvent.findMany({ where: { id: { in: ids } } })).map((row) => [row.id, row]));
      for (const id of ids) {
        const row = rows.get(id);
        if (row) yield row;
      }
    }
  }
  return { events: events(), next: positions.length > take ? slice[slice.length - 1] : null };
}

async function purgeBefore(db: Db, before: Date, batch: number): Promise<number> {
  const old = await db.auditEvent.findMany({
    where: { occurredAt: { lt: before } },
    orderBy: OLDEST_FIRST,
    select: { id: true },
    take: batch,
  });
  if (old.length === 0) return 0;
  return (await db.auditEvent.deleteMany({ where: { id: { in: old.map((row) => row.id) } } })).count;
}

export function prismaAuditStore(db: Db): AuditStore {
  return {
    async record(event) {
      await recordAuditEvent(db, event);
      // A sign-in also counts in its hour's activity, which the dashboards chart.
      const companyOfUser = async (id: string) =>
        (await db.user.findUnique({ where: { id }, select: { companyId: true } }))?.companyId;
      await addActivity(db, await signInIncrements(event, companyOfUser));
    },
    list({ type, clientId, userId, from, to }, take) {
      return db.auditEvent.findMany({
        where: { type, clientId, userId, occurredAt: from || to ? { gte: from, lte: to } : undefined },
        orderBy: NEWEST_FIRST,
        take,
      });
    },
    page: (filter, request) => readPage(db, filter, request),
    exportSlice: (filter, request) => readExportSlice(db, filter, request),
    purgeBefore: (before, batch) => purgeBefore(db, before, batch),
  };
}
