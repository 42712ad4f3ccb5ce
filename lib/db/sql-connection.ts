/**
 * A minimal SQL connection for the work Prisma cannot do for us: applying migration scripts and taking a
 * migration lock. One implementation per provider, behind one interface; `?` marks parameters on both.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseProvider, DatabaseTarget } from "@/lib/db/database-url";

export interface SqlConnection {
  readonly provider: DatabaseProvider;
  /** Runs a script of one or more statements that take no parameters. */
  executeScript(script: string): Promise<void>;
  query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction that also holds the database-wide migration lock. */
  exclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long SQLite waits for a lock held by another connection before giving up. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Arbitrary constant naming OptiGate's migration lock among PostgreSQL advisory locks. */
const MIGRATION_LOCK_ID = 7_431_902;

class SqliteConnection implements SqlConnection {
  readonly provider = "sqlite" as const;
  constructor(private readonly db: Database.Database) {}

  async executeScript(script: string): Promise<void> {
    this.db.exec(script);
  }

  async query<Row extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const statement = this.db.prepare(sql);
    if (statement.reader) return statement.all(...params) as Row[];
    statement.run(...params);
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

  async query<Row extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<Row[]> {
    let index = 0;
    const text = sql.replace(/\?/g, () => `$${++index}`);
    const result = await this.client.query(text, params);
    return result.rows as Row[];
  }

  async exclusiveTransaction<T>(work: () => Promise<T>): Promise<T> {
    await this.client.query("BEGIN");
    try {
      await this.client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
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

/** Opens the SQLite file in WAL mode with a busy timeout, creating its folder when needed. */
export function openSqliteDatabase(filename: string): Database.Database {
  mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const db = new Database(filename, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  return db;
}

export async function openSqlConnection(target: DatabaseTarget): Promise<SqlConnection> {
  if (target.provider === "sqlite") return new SqliteConnection(openSqliteDatabase(target.filename));
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  return new PostgresConnection(client);
}
