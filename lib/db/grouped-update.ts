/**
 * A conditional single-row `UPDATE … RETURNING` on the token endpoint's hot path, which the requests arriving in one
 * event-loop turn share: on SQLite as one group commit of per-row statements (sqliteGroupCommit), on PostgreSQL as
 * one statement over arrays (`UPDATE … FROM unnest(…)`), so one round trip and one commit for the group instead of
 * one each. Either way each request decides on its own row. On PostgreSQL a row is updated once per statement, so a
 * key presented twice in one group goes out again once the group has committed: the requests then see each other's
 * update as if they had come one after the other (a refresh token slides twice; a code is consumed once).
 */
import { driverValue, type ColumnType, type SqlValue } from "@/lib/db/dialect";
import { driverOf, type Db } from "@/lib/db/prisma";
import { sqliteGroupCommit, type NamedStatement } from "@/lib/db/run-statement";

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

const PARAMETER = /:([a-z_]+)/g;

export function groupedUpdate<Parameter extends string>(spec: GroupedUpdateSpec<Parameter>): GroupedUpdate<Parameter> {
  const parameterNames = Object.keys(spec.parameters) as Parameter[];
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
}

type AnyUpdate = GroupedUpdate<string>;

const pendingGroups = new WeakMap<Db, Map<AnyUpdate, Presented[]>>();

function present(db: Db, update: AnyUpdate, request: Presented): void {
  let groups = pendingGroups.get(db);
  if (!groups) pendingGroups.set(db, (groups = new Map()));
  let group = groups.get(update);
  if (!group) {
    groups.set(update, (group = []));
    setImmediate(() => void runPostgresGroup(db, update));
  }
  group.push(request);
}

async function runPostgresGroup(db: Db, update: AnyUpdate): Promise<void> {
  const groups = pendingGroups.get(db)!;
  const requests = groups.get(update)!;
  groups.delete(update);
  const firsts = new Map<string, Presented>();
  const repeats: Presented[] = [];
  for (const request of requests) {
    if (firsts.has(request.key)) repeats.push(request);
    else firsts.set(request.key, request);
  }
  const driver = driverOf(db);
  if (driver.provider !== "postgresql") throw new Error("runPostgresGroup runs on PostgreSQL only");
  const group = [...firsts.values()];
  try {
    const values = update.parameterNames.map((_, index) => group.map((request) => driverValue(request.values[index], "postgresql")));
    const { rows } = await driver.pool.query<Row>({ ...update.postgres, values });
    const byKey = new Map(rows.map((row) => [String(row.group_key), row]));
    for (const request of group) request.settle(byKey.get(request.key));
  } catch (error) {
    for (const request of group) request.fail(error);
  }
  for (const request of repeats) present(db, update, request);
}

/** Runs `update` for one request in the current group; its row, or undefined when the conditions did not hold. */
export function runGroupedUpdate<Parameter extends string, Result extends Row>(db: Db, update: GroupedUpdate<Parameter>, values: Record<Parameter, SqlValue>): Promise<Result | undefined> {
  if (driverOf(db).provider === "sqlite") {
    return sqliteGroupCommit(db, (run) => run<Result>(update.sqlite, update.sqliteOrder.map((name) => values[name]))[0]);
  }
  const ordered = update.parameterNames.map((name) => values[name]);
  return new Promise((settle, fail) => present(db, update as AnyUpdate, { key: String(ordered[0]), values: ordered, settle: settle as Presented["settle"], fail }));
}
