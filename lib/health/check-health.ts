/**
 * The health report behind GET /api/health: is the database reachable, and which migrations has it applied?
 * 200 when reachable (with pending migrations listed), 503 when not.
 */
import { describeMigrationState, migrationsDirectory, readMigrations, type MigrationState } from "@/lib/db/migrator";
import type { DatabaseProvider } from "@/lib/db/database-url";
import type { Db } from "@/lib/db/prisma";

export interface HealthReport {
  status: "ok" | "migrations_pending" | "database_unreachable";
  database: { provider: DatabaseProvider; reachable: boolean };
  migrations?: MigrationState;
}

async function appliedMigrationIds(db: Db): Promise<string[]> {
  try {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "schema_migrations"`);
    return rows.map((row) => row.id);
  } catch {
    return []; // no history table yet: nothing applied
  }
}

export async function checkHealth(db: Db, provider: DatabaseProvider): Promise<{ httpStatus: number; report: HealthReport }> {
  try {
    await db.$queryRawUnsafe("SELECT 1");
  } catch (error) {
    console.error("health: database unreachable:", (error as Error).message);
    return { httpStatus: 503, report: { status: "database_unreachable", database: { provider, reachable: false } } };
  }
  const migrations = describeMigrationState(readMigrations(migrationsDirectory(provider)), await appliedMigrationIds(db));
  const status = migrations.pending.length > 0 ? "migrations_pending" : "ok";
  return { httpStatus: 200, report: { status, database: { provider, reachable: true }, migrations } };
}
