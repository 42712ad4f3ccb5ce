/**
 * Statements run on the driver under Prisma, for the few hot paths where Prisma's per-query and per-row cost
 * dominates (token writes, the sub-catalog's article pages). Written once with `?` placeholders; PostgreSQL gets
 * `$n`, and each pooled connection prepares a named statement once.
 *
 * On SQLite the statement runs synchronously on the connection Prisma uses. Prisma's adapter runs other queries on
 * that connection even inside an open interactive transaction; these statements instead wait until no transaction
 * is open, so they never read uncommitted rows and a rollback elsewhere can never undo their writes.
 */
import type Database from "better-sqlite3";
import type { DatabaseProvider } from "@/lib/db/database-url";
import { driverOf, type Db } from "@/lib/db/prisma";

export type SqlValue = string | number | boolean | Date | null;

export interface DriverStatement {
  /** Names the prepared statement on PostgreSQL connections. */
  name: string;
  sql(provider: DatabaseProvider): string;
  /** Rows as arrays of column values, which both drivers produce much faster than objects for many rows. */
  arrays?: boolean;
}

/** The stored form of a timestamp: SQLite keeps the adapter's ISO text, PostgreSQL ignores the zone of UTC input. */
const stamp = (date: Date, provider: DatabaseProvider) => (provider === "sqlite" ? date.toISOString().replace("Z", "+00:00") : date.toISOString());

const toDriver = (values: SqlValue[], provider: DatabaseProvider) => values.map((value) => (value instanceof Date ? stamp(value, provider) : value));

const postgresText = new Map<string, string>();

/** The statement's PostgreSQL text with `$n` placeholders, made once per statement (the token endpoint's hot path). */
function postgresSql(statement: DriverStatement): string {
  let text = postgresText.get(statement.name);
  if (text === undefined) {
    let index = 0;
    text = statement.sql("postgresql").replace(/\?/g, () => `$${++index}`);
    postgresText.set(statement.name, text);
  }
  return text;
}

const preparedStatements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

async function untilNoTransaction(database: Database.Database): Promise<void> {
  while (database.inTransaction) await new Promise((resolve) => setImmediate(resolve));
}

async function queryOnDriver<Row>(db: Db, statement: DriverStatement, values: SqlValue[]): Promise<Row[] | null> {
  const driver = driverOf(db);
  if (driver.provider === "postgresql") {
    const query = { name: statement.name, text: postgresSql(statement), values: toDriver(values, "postgresql") };
    const result = statement.arrays ? await driver.pool.query({ ...query, rowMode: "array" }) : await driver.pool.query(query);
    return result.rows as Row[];
  }
  const database = driver.database();
  if (!database) return null;
  await untilNoTransaction(database);
  let statements = preparedStatements.get(database);
  if (!statements) preparedStatements.set(database, (statements = new Map()));
  let prepared = statements.get(statement.name);
  if (!prepared) {
    // The adapter reads integers as BigInt; the columns read here fit in a JavaScript number.
    prepared = database.prepare(statement.sql("sqlite")).safeIntegers(false);
    if (statement.arrays) prepared.raw(true);
    statements.set(statement.name, prepared);
  }
  const driverValues = toDriver(values, "sqlite");
  if (prepared.reader) return prepared.all(...driverValues) as Row[];
  prepared.run(...driverValues);
  return [];
}

export interface InsertColumn {
  name: string;
  /** The column's PostgreSQL type, for the array the rows travel in. */
  postgresType: "text" | "integer" | "boolean" | "timestamp(3)";
}

/**
 * Inserts many rows at once: on SQLite as one synchronous transaction of a prepared INSERT (nothing else can run on
 * the connection meanwhile); on PostgreSQL as one `INSERT ... SELECT FROM unnest(...)` with a parameter per column,
 * a single statement whatever the number of rows. Prisma's createMany costs a hundred times more per row.
 */
export async function insertRows(db: Db, table: string, columns: InsertColumn[], rows: SqlValue[][]): Promise<void> {
  const names = columns.map((column) => `"${column.name}"`).join(", ");
  const driver = driverOf(db);
  if (driver.provider === "postgresql") {
    const arrays = columns.map((_, index) => rows.map((row) => toDriver([row[index]], "postgresql")[0]));
    const unnest = columns.map((column, index) => `$${index + 1}::${column.postgresType}[]`).join(", ");
    await driver.pool.query({ name: `optigate_insert_${table}`, text: `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${unnest})`, values: arrays });
    return;
  }
  let database = driver.database();
  if (!database) {
    await db.$queryRawUnsafe("SELECT 1"); // connects the adapter, which opens the connection
    database = driver.database();
    if (!database) throw new Error("the SQLite connection is not available");
  }
  await untilNoTransaction(database);
  const insert = database.prepare(`INSERT INTO "${table}" (${names}) VALUES (${columns.map(() => "?").join(", ")})`);
  database.transaction(() => {
    for (const row of rows) insert.run(...toDriver(row, "sqlite").map((value) => (typeof value === "boolean" ? Number(value) : value)));
  })();
}

/** Runs the statement on the driver, or through Prisma while SQLite's connection is not open yet (before the first query). */
export async function driverQuery<Row>(db: Db, statement: DriverStatement, values: SqlValue[]): Promise<Row[]> {
  const rows = await queryOnDriver<Row>(db, statement, values);
  if (rows !== null) return rows;
  const objects = await db.$queryRawUnsafe<Record<string, unknown>[]>(statement.sql("sqlite"), ...toDriver(values, "sqlite"));
  return (statement.arrays ? objects.map((row) => Object.values(row)) : objects) as Row[];
}
