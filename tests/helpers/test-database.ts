/**
 * A fresh database per test file: a temporary SQLite file, or, when TEST_DATABASE_URL is a PostgreSQL URL, a new
 * database created next to the one it names (and dropped afterwards).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { parseDatabaseUrl, type DatabaseTarget } from "@/lib/config/database-url";
import { applyMigrations } from "@/lib/db/migrator";
import { closeDb, createPrismaClient, type Db } from "@/lib/db/prisma";
import type { NamedStatement } from "@/lib/db/run-statement";

export interface TestDatabase {
  target: DatabaseTarget;
  db: Db;
  drop(): Promise<void>;
}

export const testProvider = (): DatabaseTarget["provider"] =>
  /^postgres(ql)?:\/\//.test(process.env.TEST_DATABASE_URL ?? "") ? "postgresql" : "sqlite";

async function createPostgresDatabase(
  adminUrl: string,
): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  const url = new URL(adminUrl);
  const name = `${url.pathname.slice(1)}_${randomBytes(5).toString("hex")}`.toLowerCase();
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  return {
    target: parseDatabaseUrl(url.toString()),
    drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

function createSqliteDatabase(): { target: DatabaseTarget; drop: () => Promise<void> } {
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-test-"));
  return {
    target: parseDatabaseUrl(`file:${path.join(directory, "optigate.db")}`),
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const created =
    testProvider() === "postgresql"
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!)
      : createSqliteDatabase();
  if (options.migrate ?? true) await applyMigrations(created.target);
  const db = createPrismaClient(created.target);
  return {
    target: created.target,
    db,
    drop: async () => {
      await closeDb(db);
      await created.drop();
    },
  };
}

/** Points the service's configuration (read by route handlers) at a test database. */
export function useDatabaseForService(target: DatabaseTarget): void {
  process.env.DATABASE_URL = target.url;
  process.env.SECRET_KEY ??= "test-secret-key-".padEnd(48, "x");
}

/** A one-off statement for a test's own look into the database (the application's SQL is in lib/db/statements/). */
export function adHoc(sql: string): NamedStatement {
  return { name: "test_ad_hoc", sql: () => sql };
}
