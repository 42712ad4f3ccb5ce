/**
 * Applies the plain SQL migrations in prisma/migrations/<provider>/ (files named NNNN_name.sql, applied in order).
 * The whole run is one transaction holding a database-wide lock, so a failing migration leaves nothing behind and
 * two processes starting at once apply each migration exactly once. Applied migrations are recorded with a checksum
 * in `schema_migrations`; re-running applies nothing, and a changed file that was already applied is an error.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseProvider, DatabaseTarget } from "@/lib/config/database-url";
import { renderMigration } from "@/lib/db/dialect";
import { openSqlConnection, type SqlConnection } from "@/lib/db/sql-connection";
import type { ProgressListener } from "@/lib/observability/progress";
import { CREATE_HISTORY, READ_HISTORY, RECORD_MIGRATION } from "@/lib/db/statements/migrations";

export interface Migration {
  /** File name without `.sql`, such as 0001_identity. */
  id: string;
  script: string;
  checksum: string;
}

export interface MigrationState {
  applied: string[];
  pending: string[];
}

export class MigrationError extends OptiGateError<"migration_failed"> {
  readonly code = "migration_failed";
}

const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.sql$/;

export function migrationsDirectory(root = process.cwd()): string {
  return path.join(root, "prisma", "migrations");
}

/**
 * The migrations of a directory as one database runs them: each file is written once, with the dialect's tokens
 * (lib/db/dialect.ts), and its checksum is that of the text the database ran, so files written for one provider
 * before the tokens existed keep theirs.
 */
export function readMigrations(directory: string, provider: DatabaseProvider): Migration[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => {
      const match = MIGRATION_FILE.exec(name);
      if (!match) throw new MigrationError(`migration file ${name} is not named NNNN_lower_case_name.sql`);
      const script = renderMigration(readFileSync(path.join(directory, name), "utf8"), provider);
      return { id: match[1], script, checksum: createHash("sha256").update(script).digest("hex") };
    });
}

async function readHistory(connection: SqlConnection): Promise<Map<string, string>> {
  const rows = await connection.query<{ id: string; checksum: string }>(READ_HISTORY);
  return new Map(rows.map((row) => [row.id, row.checksum]));
}

function checkUnchanged(migrations: Migration[], history: Map<string, string>): void {
  for (const migration of migrations) {
    const recorded = history.get(migration.id);
    if (recorded !== undefined && recorded !== migration.checksum) {
      throw new MigrationError(
        `migration ${migration.id} was changed after it was applied; add a new migration instead`,
      );
    }
  }
}

/**
 * Applies every pending migration; returns the ids it applied (none when the database is up to date). `onProgress`
 * learns how many are pending once the history is read, and each one applied.
 */
export async function migrate(
  connection: SqlConnection,
  migrations: Migration[],
  onProgress?: ProgressListener,
): Promise<string[]> {
  return connection.exclusiveTransaction(async () => {
    await connection.query(CREATE_HISTORY);
    const history = await readHistory(connection);
    checkUnchanged(migrations, history);
    const pending = migrations.filter((m) => !history.has(m.id));
    onProgress?.(0, pending.length);
    const applied: string[] = [];
    for (const migration of pending) {
      try {
        await connection.executeScript(migration.script);
      } catch (error) {
        throw new MigrationError(`migration ${migration.id} failed: ${(error as Error).message}`, { cause: error });
      }
      await connection.query(RECORD_MIGRATION, [migration.id, migration.checksum, new Date()]);
      applied.push(migration.id);
      onProgress?.(applied.length, pending.length);
    }
    return applied;
  });
}

/** Which of `migrations` the database has applied, read from its history table (absent: none). */
export function describeMigrationState(migrations: Migration[], appliedIds: Iterable<string>): MigrationState {
  const applied = new Set(appliedIds);
  return {
    applied: migrations.filter((m) => applied.has(m.id)).map((m) => m.id),
    pending: migrations.filter((m) => !applied.has(m.id)).map((m) => m.id),
  };
}

/** Applies the pending migrations of the database's provider on a connection of its own. */
export async function applyMigrations(target: DatabaseTarget, onProgress?: ProgressListener): Promise<string[]> {
  const connection = await openSqlConnection(target);
  try {
    return await migrate(connection, readMigrations(migrationsDirectory(), target.provider), onProgress);
  } finally {
    await connection.close();
  }
}
