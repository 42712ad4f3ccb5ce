/**
 * A conditional single-row `UPDATE … RETURNING` on the token endpoint's hot path, which the requests arriving in one
 * event-loop turn share: on SQLite as one group commit of per-row statements (sqliteGroupCommit), on PostgreSQL as
 * one statement over arrays (`UPDATE … FROM unnest(…)`), so one round trip and one commit for the group instead of
 * one each. Either way each request decides on its own row, and if the statement fails, every request of its group
 * fails. On PostgreSQL a row is updated once per statement, so a key presented twice in one group goes out again,
 * first in the next group, once the group has committed: the requests then see each other's update as if they had
 * come one after the other (a refresh token slides twice; a code is consumed once). A group locks its rows in the
 * order of its keys, so that two groups in flight cannot deadlock each other; one that deadlocks with another
 * multi-row update (a revocation) is tried once more.
 */
import type pg from "pg";
import { processCache } from "@/lib/observability/process-cache";
import { activeTracer, traceStatement } from "@/lib/observability/tracing";
import { driverValue, type ColumnType, type SqlValue } from "@/lib/db/dialect";
import { driverOf, type Db, type PostgresDriver } from "@/lib/db/prisma";
import { sqliteGroupCommit, statementName, type NamedStatement } from "@/lib/db/run-statement";

export interface GroupedUpdateSpec<Parameter extends string> {
  /** Names the prepared statements. */
  name: string;
  table: string;
  /** The values each request brings; the first is a unique column of the table, which its row is matched back by. */
  parameters: Record<Parameter, ColumnType>;
  /** `"column" = :parameter, …` */
  set: string;
  /** Conditions on the row, naming the request's values as `:parameter`. */
  where: string;
  returning: (provider: "sqlite" | "postgresql") => string;
}

export interface GroupedUpdate<Parameter extends string> {
  parameterNames: Parameter[];
  /** One row: `?` placeholders, bound in `sqliteOrder`. */
  sqlite: NamedStatement;
  sqliteOrder: Parameter[];
  /** A group: one array parameter per request value; each row comes back with its key as `group_key`. */
  postgres: { name: string; text: string };
}

/** `:name`, but not the second colon of a `::type` cast. */
const PARAMETER = /(?<!:):([a-z_]+)\b/g;

export function groupedUpdate<Parameter extends string>(spec: GroupedUpdateSpec<Parameter>): GroupedUpdate<Parameter> {
  const parameterNames = Object.keys(spec.parameters) as Parameter[];
  for (const [, name] of `${spec.set} ${spec.where}`.matchAll(PARAMETER)) {
    if (!parameterNames.includes(name as Parameter))
      throw new Error(`${spec.name}: :${name} is not one of its parameters`);
  }
  const sqliteOrder: Parameter[] = [];
  const positional = (text: string) => text.replace(PARAMETER, (_, name: Parameter) => (sqliteOrder.push(name), "?"));
  const sqliteText = `UPDATE "${spec.table}" SET ${positional(spec.set)} WHERE ${positional(spec.where)} RETURNING ${spec.returning("sqlite")}`;
  // The request's columns are named p_…, so that the table's own columns stay unambiguous in every clause.
  const presented = (text: string) => text.replace(PARAMETER, (_, name: string) => `"p_${name}"`);
  const arrays = parameterNames.map((name, index) => `$${index + 1}::${spec.parameters[name]}[]`).join(", ");
  const columns = parameterNames.map((name) => `"p_${name}"`).join(", ");
  const postgresText = `UPDATE "${spec.table}" SET ${presented(spec.set)}
    FROM unnest(${arrays}) AS "presented"(${columns})
    WHERE ${presented(spec.where)}
    RETURNING "${parameterNames[0]}" AS "group_key", ${spec.returning("postgresql")}`;
  return {
    parameterNames,
    sqlite: { name: spec.name, sql: () => sqliteText },
    sqliteOrder,
    postgres: { name: `${spec.name}_group`, text: postgresText },
  };
}

type Row = Record<string, unknown>;

interface Presented {
  key: string;
  values: SqlValue[];
  settle: (row: Row | undefined) => void;
  fail: (error: unknown) => void;
  /** Deadlocks met so far. */
  deadlocks: number;
}

interface PendingGroup {
  update: GroupedUpdate<string>;
  requests: Presented[];
}

const DEADLOCK_DETECTED = "40P01";

// Shared by every copy of this module in the process (the Next.js bundle and the lean front load their own), so that
// their requests share groups too. Per pool, then per statement.
const pendingGroups = processCache("groupedUpdates", () => new WeakMap<pg.Pool, Map<string, PendingGroup>>());

/** Adds a request to the pool's next group of `update`; repeats of a key go first, so that they are not overtaken. */
function present(driver: PostgresDriver, update: GroupedUpdate<string>, request: Presented, repeat = false): void {
  let groups = pendingGroups.get(driver.pool);
  if (!groups) pendingGroups.set(driver.pool, (groups = new Map()));
  let group = groups.get(update.postgres.name);
  if (!group) {
    groups.set(update.postgres.name, (group = { update, requests: [] }));
    setImmediate(() => void runPostgresGroup(driver, update.postgres.name));
  }
  if (repeat) group.requests.unshift(request);
  else group.requests.push(request);
}

async function runPostgresGroup(driver: PostgresDriver, groupName: string): Promise<void> {
  const groups = pendingGroups.get(driver.pool)!;
  const { update, requests } = groups.get(groupName)!;
  groups.delete(groupName);
  const firsts = new Map<string, Presented>();
  const repeats: Presented[] = [];
  for (const request of requests) {
    if (firsts.has(request.key)) repeats.push(request);
    else firsts.set(request.key, request);
  }
  const group = [...firsts.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  try {
    const values = update.parameterNames.map((_, index) =>
      group.map((request) => driverValue(request.values[index], "postgresql")),
    );
    const { name, text } = update.postgres;
    const { rows } = await driver.pool.query<Row>({ name: statementName(driver, name), text, values });
    const byKey = new Map(rows.map((row) => [String(row.group_key), row]));
    for (const request of group) request.settle(byKey.get(request.key));
  } catch (error) {
    for (const request of group) {
      if ((error as { code?: string }).code === DEADLOCK_DETECTED && request.deadlocks++ === 0)
        present(driver, update, request);
      else request.fail(error);
    }
  }
  for (const request of repeats.reverse()) present(driver, update, request, true);
}

/**
 * Runs `update` for one request in the current group; its row, or undefined when the conditions did not hold. While
 * traces are exported, the request's span of it lasts until its group has committed.
 */
export function runGroupedUpdate<Parameter extends string, Result extends Row>(
  db: Db,
  update: GroupedUpdate<Parameter>,
  values: Record<Parameter, SqlValue>,
): Promise<Result | undefined> {
  return activeTracer()
    ? traceStatement(update.sqlite.name, driverOf(db).provider, () => joinGroup<Parameter, Result>(db, update, values))
    : joinGroup<Parameter, Result>(db, update, values);
}

function joinGroup<Parameter extends string, Result extends Row>(
  db: Db,
  update: GroupedUpdate<Parameter>,
  values: Record<Parameter, SqlValue>,
): Promise<Result | undefined> {
  const driver = driverOf(db);
  if (driver.provider === "sqlite") {
    return sqliteGroupCommit(
      db,
      (run) =>
        run<Result>(
          update.sqlite,
          update.sqliteOrder.map((name) => values[name]),
        )[0],
    );
  }
  const ordered = update.parameterNames.map((name) => values[name]);
  return new Promise((settle, fail) =>
    present(driver, update as unknown as GroupedUpdate<string>, {
      key: String(ordered[0]),
      values: ordered,
      settle: settle as Presented["settle"],
      fail,
      deadlocks: 0,
    }),
  );
}
