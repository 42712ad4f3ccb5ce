/**
 * Single use of signed assertions (RFC 7523 §3 item 7): one statement records a use and says whether it is the
 * first, so that of two instances receiving the same assertion at once exactly one accepts it. A key whose earlier
 * use has expired (and was not purged yet) may be used again: its assertion could not be replayed anyway. A use
 * may come with its audit event, written in the same transaction only when the use is the first.
 */
import type pg from "pg";
import { processCache } from "@/lib/observability/process-cache";
import { activeTracer, traceStatement } from "@/lib/observability/tracing";
import { driverValue } from "@/lib/db/dialect";
import { driverOf, type Db, type PostgresDriver } from "@/lib/db/prisma";
import { runStatement, sqliteGroupCommit, statementName, type NamedStatement } from "@/lib/db/run-statement";

const USE = `INSERT INTO "used_assertions" ("key", "expires_at") VALUES (?, ?)
    ON CONFLICT ("key") DO UPDATE SET "expires_at" = excluded."expires_at" WHERE "used_assertions"."expires_at" <= ?
    RETURNING "key"`;
const AUDIT_COLUMNS = `"audit_events" ("id", "occurred_at", "type", "user_id", "client_id", "details")`;

export const USE_ASSERTION: NamedStatement = { name: "optigate_use_assertion", sql: () => USE };

export const RECORD_AUDIT_EVENT: NamedStatement = {
  name: "optigate_record_audit_event",
  sql: () => `INSERT INTO ${AUDIT_COLUMNS} VALUES (?, ?, ?, ?, ?, ?)`,
};

/** PostgreSQL: the use and its event in one statement. */
export const USE_ASSERTION_RECORDED: NamedStatement = {
  name: "optigate_use_assertion_recorded",
  sql: () => `WITH "used" AS (${USE}) INSERT INTO ${AUDIT_COLUMNS} SELECT ?, ?, ?, ?, ?, ? FROM "used" RETURNING "id"`,
};

export interface AuditRow {
  id: string;
  occurredAt: Date;
  type: string;
  userId: string | null;
  clientId: string | null;
  /** JSON text */
  details: string;
}

/**
 * PostgreSQL: the uses of one event-loop turn as one statement, so one round trip and one commit (DPoP proofs come
 * with every request of a DPoP client). A key twice in one group is a replay of the first.
 */
const USE_ASSERTION_GROUP = {
  name: "optigate_use_assertion_group",
  text: `INSERT INTO "used_assertions" ("key", "expires_at")
    SELECT * FROM unnest($1::text[], $2::timestamp(3)[])
    ON CONFLICT ("key") DO UPDATE SET "expires_at" = excluded."expires_at" WHERE "used_assertions"."expires_at" <= $3
    RETURNING "key"`,
};

interface PendingUse {
  key: string;
  expiresAt: Date;
  now: Date;
  settle: (first: boolean) => void;
  fail: (error: unknown) => void;
}

const pendingUses = processCache("usedAssertionGroups", () => new WeakMap<pg.Pool, PendingUse[]>());

async function runUseGroup(driver: PostgresDriver): Promise<void> {
  const uses = pendingUses.get(driver.pool)!;
  pendingUses.delete(driver.pool);
  const firsts = new Map<string, PendingUse>();
  for (const use of uses) {
    if (firsts.has(use.key)) use.settle(false);
    else firsts.set(use.key, use);
  }
  const group = [...firsts.values()];
  try {
    const latest = group.reduce((max, use) => (use.now > max ? use.now : max), group[0].now);
    const { rows } = await driver.pool.query<{ key: string }>({
      name: statementName(driver, USE_ASSERTION_GROUP.name),
      text: USE_ASSERTION_GROUP.text,
      values: [
        group.map((use) => use.key),
        group.map((use) => driverValue(use.expiresAt, "postgresql")),
        driverValue(latest, "postgresql"),
      ],
    });
    const recorded = new Set(rows.map((row) => row.key));
    for (const use of group) use.settle(recorded.has(use.key));
  } catch (error) {
    for (const use of group) use.fail(error);
  }
}

/** Records the use of `key` until `expiresAt`; false when it was used before and that use has not expired. */
export function useAssertion(db: Db, key: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  return activeTracer()
    ? traceStatement(USE_ASSERTION.name, driverOf(db).provider, () => recordUse(db, key, expiresAt, now))
    : recordUse(db, key, expiresAt, now);
}

async function recordUse(db: Db, key: string, expiresAt: Date, now: Date): Promise<boolean> {
  const driver = driverOf(db);
  if (driver.provider === "sqlite")
    return sqliteGroupCommit(db, (run) => run(USE_ASSERTION, [key, expiresAt, now]).length === 1);
  return new Promise((settle, fail) => {
    let uses = pendingUses.get(driver.pool);
    if (!uses) {
      pendingUses.set(driver.pool, (uses = []));
      setImmediate(() => void runUseGroup(driver));
    }
    uses.push({ key, expiresAt, now, settle, fail });
  });
}

/** As useAssertion, and writes `event` along with a first use (in the same commit). */
export async function useAssertionRecorded(
  db: Db,
  key: string,
  expiresAt: Date,
  now: Date,
  event: AuditRow,
): Promise<boolean> {
  const eventValues = [event.id, event.occurredAt, event.type, event.userId, event.clientId, event.details];
  if (driverOf(db).provider === "postgresql")
    return (await runStatement(db, USE_ASSERTION_RECORDED, [key, expiresAt, now, ...eventValues])).length === 1;
  const commit = () =>
    sqliteGroupCommit(db, (run) => {
      const first = run(USE_ASSERTION, [key, expiresAt, now]).length === 1;
      if (first) run(RECORD_AUDIT_EVENT, eventValues);
      return first;
    });
  // As runStatement traces the PostgreSQL statement.
  return activeTracer() ? traceStatement(USE_ASSERTION_RECORDED.name, "sqlite", commit) : commit();
}
