/**
 * A minimal SQL connection for the work Prisma cannot do for us: applying migration scripts and taking a
 * migration lock. One implementation per provider, behind one interface; statements are named ones
 * (lib/db/statements/migrations.ts).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseProvider, DatabaseTarget } from "@/lib/config/database-url";
import { driverValue, numberedPlaceholders, type SqlValue } from "@/lib/db/dialect";
import type { NamedStatement } from "@/lib/db/run-statement";
import { TAKE_MIGRATION_LOCK } from "@/lib/db/statements/migrations";

export interface SqlConnection {
  readonly provider: DatabaseProvider;
  /** Runs a script of one or more statements that take no parameters. */
  executeScript(script: string): Promise<void>;
  query<Row extends Record<string, unknown>>(statement: NamedStatement, values?: SqlValue[]): Promise<Row[]>;
  /** Runs `work` in one transaction that also holds the database-wide migration lock. */
  exclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long SQLite waits for a lock held by another connection before giving up. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Arbitrary constant naming OptiGate's migration lock among PostgreSQL advisory locks. The lock is transaction-scoped
 * and taken inside the run's one transaction, so that it holds behind a transaction-mode pooler too (DATABASE_POOLER),
 * which may hand a session's next transaction to another server connection.
 */
const MIGRATION_LOCK_ID = 7_431_902;

class SqliteConnection implements SqlConnection {
  readonly provider = "sqlite" as const;
  constructor(private readonly db: Database.Database) {}

  async executeScript(script: string): Promise<void> {
    this.db.exec(script);
  }

  async query<Row extends Record<string, unknown>>(statement: NamedStatement, values: SqlValue[] = []): Promise<Row[]> {
    const prepared = this.db.prepare(statement.sql("sqlite"));
    const parameters = values.map((value) => driverValue(value, "sqlite"));
    if (prepared.reader) return prepared.all(...parameters) as Row[];
    prepared.run(...parameters);
    return [];
  }

  async exclusiveTransaction<T>(work: () => Promise<T>): Promise<T> {
    // IMMEDIATE takes the write lock up front, so a second migrator waits instead of failing half-way.
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = await work();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

class PostgresConnection implements SqlConnection {
  readonly provider = "postgresql" as const;
  constructor(private readonly client: pg.Client) {}

  async executeScript(script: string): Promise<void> {
    await this.client.query(script);
  }

  async query<Row extends Record<string, unknown>>(statement: NamedStatement, values: SqlValue[] = []): Promise<Row[]> {
    const result = await this.client.query(
      numberedPlaceholders(statement.sql("postgresql")),
      values.map((value) => driverValue(value, "postgresql")),
    );
    return result.rows as Row[];
  }

  async exclusiveTransaction<T>(work: () => Promise<T>): Promise<T> {
    await this.client.query("BEGIN");
    try {
      await this.query(TAKE_MIGRATION_LOCK, [MIGRATION_LOCK_ID]);
      const result = await work();
      await this.client.query("COMMIT");
      return result;
    } catch (error) {
      await this.client.query("ROLLBACK");
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** Opens the SQLite file in WAL mode with a busy timeout; the migrator also creates its folder when needed. */
export function openSqliteDatabase(filename: string, options: { createFolder: boolean }): Database.Database {
  if (options.createFolder) mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const db = new Database(filename, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  return db;
}

export async function openSqlConnection(target: DatabaseTarget): Promise<SqlConnection> {
  if (target.provider === "sqlite")
    return new SqliteConnection(openSqliteDatabase(target.filename, { createFolder: true }));
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  return new PostgresConnection(client);
}
