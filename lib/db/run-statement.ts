/**
 * Runs OptiGate's named statements (lib/db/statements/) on its own connection beside Prisma (lib/db/prisma.ts),
 * where Prisma's per-query and per-row cost would dominate: on PostgreSQL as named (prepared) statements of the pool
 * (unnamed behind a transaction-mode pooler, see statementName), on SQLite as statements prepared once on OptiGate's
 * connection, in turn with Prisma's transactions. While traces are exported, each statement is a span named after it.
 */
import type Database from "better-sqlite3";
import { driverValue, manyRowsInsert, numberedPlaceholders, type ColumnType, type SqlValue } from "@/lib/db/dialect";
import { processCache } from "@/lib/observability/process-cache";
import { activeTracer, traceStatement } from "@/lib/observability/tracing";
import { driverOf, type Db, type PostgresDriver } from "@/lib/db/prisma";

export type { SqlValue };

export interface NamedStatement {
  /** Names the prepared statement on PostgreSQL connections, and the statement in the tests. */
  name: string;
  /** Written once, with `?` parameters; the provider only matters where lib/db/dialect.ts says so. */
  sql(provider: "sqlite" | "postgresql"): string;
  /** Rows as arrays of column values, which both drivers produce much faster than objects for many rows. */
  arrays?: boolean;
}

const postgresText = new Map<string, string>();
const sqliteStatements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** The statement's PostgreSQL text, made once per statement (the token endpoint's hot path). */
function postgresSql(statement: NamedStatement): string {
  let text = postgresText.get(statement.name);
  if (text === undefined) postgresText.set(statement.name, (text = numberedPlaceholders(statement.sql("postgresql"))));
  return text;
}

function sqliteStatement(database: Database.Database, statement: NamedStatement): Database.Statement {
  let statements = sqliteStatements.get(database);
  if (!statements) sqliteStatements.set(database, (statements = new Map()));
  let prepared = statements.get(statement.name);
  if (!prepared) {
    prepared = database.prepare(statement.sql("sqlite"));
    if (statement.arrays) prepared.raw(true);
    statements.set(statement.name, prepared);
  }
  return prepared;
}

/**
 * The name a statement is prepared under on a pool connection, which then parses and plans it only once. None behind
 * a transaction-mode pooler: consecutive queries of one client connection reach different server connections, where
 * a name would be unknown ("does not exist") or already taken by another client ("already exists").
 */
export function statementName(driver: PostgresDriver, name: string): string | undefined {
  return driver.pooler === "transaction" ? undefined : name;
}

export function runStatement<Row>(db: Db, statement: NamedStatement, values: SqlValue[]): Promise<Row[]> {
  return activeTracer()
    ? traceStatement(statement.name, driverOf(db).provider, () => execute<Row>(db, statement, values))
    : execute<Row>(db, statement, values);
}

async function execute<Row>(db: Db, statement: NamedStatement, values: SqlValue[]): Promise<Row[]> {
  const driver = driverOf(db);
  if (driver.provider === "postgresql") {
    const query = {
      name: statementName(driver, statement.name),
      text: postgresSql(statement),
      values: values.map((value) => driverValue(value, "postgresql")),
    };
    const result = statement.arrays
      ? await driver.pool.query({ ...query, rowMode: "array" })
      : await driver.pool.query(query);
    return result.rows as Row[];
  }
  const database = driver.database();
  return driver.lock.run(() => runOnSqlite<Row>(database, statement, values));
}

function runOnSqlite<Row>(database: Database.Database, statement: NamedStatement, values: SqlValue[]): Row[] {
  const prepared = sqliteStatement(database, statement);
  const parameters = values.map((value) => driverValue(value, "sqlite"));
  return prepared.reader ? (prepared.all(...parameters) as Row[]) : (prepared.run(...parameters), []);
}

export type StatementRunner = <Row>(statement: NamedStatement, values: SqlValue[]) => Row[];

/**
 * SQLite only: `work` runs its statements as one transaction on OptiGate's connection (one commit, so one sync of
 * the log), in turn with Prisma's transactions. PostgreSQL does the same in one statement (a data-modifying WITH).
 */
async function sqliteTransaction<T>(db: Db, work: (run: StatementRunner) => T): Promise<T> {
  const driver = driverOf(db);
  if (driver.provider !== "sqlite") throw new Error("sqliteTransaction runs on SQLite only");
  const database = driver.database();
  return driver.lock.run(() =>
    database.transaction(() => work((statement, values) => runOnSqlite(database, statement, values)))(),
  );
}

interface PendingWork {
  work: (run: StatementRunner) => unknown;
  settle: (result: unknown) => void;
  fail: (error: unknown) => void;
}

// Shared by every copy of this module in the process (the Next.js bundle and the lean front load their own), so that
// their works share commits too.
const pendingWorks = processCache("sqliteGroupCommits", () => new WeakMap<Db, PendingWork[]>());

async function commitGroup(db: Db): Promise<void> {
  const works = pendingWorks.get(db)!;
  pendingWorks.delete(db);
  try {
    const results = await sqliteTransaction(db, (run) => works.map(({ work }) => work(run)));
    works.forEach(({ settle }, index) => settle(results[index]));
  } catch (error) {
    works.forEach(({ fail }) => fail(error));
  }
}

/**
 * SQLite only: `work` runs on OptiGate's connection in a group commit. The works handed in while one event-loop turn
 * runs share one transaction, each still deciding on its own rows; a commit costs far more than the rows in it (an
 * update of one refresh token ~50 µs alone, ~12 µs in a group of eight). If the transaction fails, every work in it
 * fails. (On PostgreSQL, lib/db/grouped-update.ts groups the hot updates into one statement.)
 */
export function sqliteGroupCommit<T>(db: Db, work: (run: StatementRunner) => T): Promise<T> {
  if (driverOf(db).provider !== "sqlite") throw new Error("sqliteGroupCommit runs on SQLite only");
  return new Promise<T>((settle, fail) => {
    let works = pendingWorks.get(db);
    if (!works) {
      pendingWorks.set(db, (works = []));
      setImmediate(() => void commitGroup(db));
    }
    works.push({ work, settle: settle as (result: unknown) => void, fail });
  });
}

export interface InsertColumn {
  name: string;
  type: ColumnType;
}

/**
 * Inserts many rows at once (lib/db/dialect.ts's manyRowsInsert): on SQLite as one synchronous transaction of a
 * prepared INSERT; on PostgreSQL as one statement. Prisma's createMany costs a hundred times more per row.
 */
export function insertRows(db: Db, table: string, columns: InsertColumn[], rows: SqlValue[][]): Promise<void> {
  const statement: NamedStatement = {
    name: `optigate_insert_${table}`,
    sql: (provider) => manyRowsInsert(table, columns, provider),
  };
  return activeTracer()
    ? traceStatement(statement.name, driverOf(db).provider, () => insertNow(db, statement, columns, rows))
    : insertNow(db, statement, columns, rows);
}

async function insertNow(
  db: Db,
  statement: NamedStatement,
  columns: InsertColumn[],
  rows: SqlValue[][],
): Promise<void> {
  const driver = driverOf(db);
  if (driver.provider === "postgresql") {
    const arrays = columns.map((_, index) => rows.map((row) => driverValue(row[index], "postgresql")));
    await driver.pool.query({
      name: statementName(driver, statement.name),
      text: statement.sql("postgresql"),
      values: arrays,
    });
    return;
  }
  const database = driver.database();
  const insert = sqliteStatement(database, statement);
  await driver.lock.run(() =>
    database.transaction(() =>
      rows.forEach((row) => insert.run(...row.map((value) => driverValue(value, "sqlite")))),
    )(),
  );
}
