/**
 * A fresh database per test file: a temporary SQLite file, or, when TEST_DATABASE_URL is a PostgreSQL URL, a new
 * database created next to the one it names (and dropped afterwards). A migrated one starts as a copy of the
 * integration run's template (template-database.ts).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { databaseEnvironment, parseDatabaseUrl, type DatabaseTarget } from "@/lib/config/database-url";
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

/** Runs one statement on the PostgreSQL server's maintenance connection (creating and dropping databases). */
export async function runAdminStatement(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

type CreatedDatabase = { target: DatabaseTarget; drop: () => Promise<void> };

async function createPostgresDatabase(adminUrl: string, template: string | undefined): Promise<CreatedDatabase> {
  const url = new URL(adminUrl);
  const name = `${url.pathname.slice(1)}_${randomBytes(5).toString("hex")}`.toLowerCase();
  await runAdminStatement(adminUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  url.pathname = `/${name}`;
  return {
    target: parseDatabaseUrl(url.toString()),
    drop: () => runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

function createSqliteDatabase(template: string | undefined): CreatedDatabase {
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-test-"));
  const file = path.join(directory, "optigate.db");
  if (template) copyFileSync(template, file);
  return {
    target: parseDatabaseUrl(`file:${file}`),
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** The integration run's migrated template, or none where a test migrates for itself (outside that run). */
function migratedTemplate(): string | undefined {
  try {
    return inject("migratedTemplate");
  } catch {
    return undefined;
  }
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  const template = migrate ? migratedTemplate() : undefined;
  const created =
    testProvider() === "postgresql"
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!, template)
      : createSqliteDatabase(template);
  if (migrate && !template) await applyMigrations(created.target);
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
  Object.assign(process.env, databaseEnvironment(target));
  process.env.SECRET_KEY ??= "test-secret-key-".padEnd(48, "x");
}

/** A one-off statement for a test's own look into the database (the application's SQL is in lib/db/statements/). */
export function adHoc(sql: string): NamedStatement {
  return { name: "test_ad_hoc", sql: () => sql };
}
