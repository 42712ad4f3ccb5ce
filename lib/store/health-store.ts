/**
 * What the health report and the metrics read about the database itself: whether it answers, which migrations it has
 * applied (named statements of lib/db/statements/health.ts), and how many connections the PostgreSQL pool holds.
 */
import { driverOf, type Db } from "@/lib/db/prisma";
import type { DatabaseProvider } from "@/lib/config/database-url";
import {
  describeMigrationState,
  migrationsDirectory,
  readMigrations,
  type Migration,
  type MigrationState,
} from "@/lib/db/migrator";
import { appliedMigrationIds, ping } from "@/lib/db/statements/health";

export type { MigrationState } from "@/lib/db/migrator";

export type DatabaseHealth = { reachable: true; migrations: MigrationState } | { reachable: false; error: Error };

/** The migrations this version ships, read from disk once per process: probes ask every few seconds. */
const shippedMigrations = new Map<DatabaseProvider, Migration[]>();
function shippedFor(provider: DatabaseProvider): Migration[] {
  let migrations = shippedMigrations.get(provider);
  if (!migrations) shippedMigrations.set(provider, (migrations = readMigrations(migrationsDirectory(), provider)));
  return migrations;
}

/**
 * Pings the database and, when it answers, compares the migrations it has applied (none without a history table)
 * with those this version ships.
 */
export async function readDatabaseHealth(db: Db): Promise<DatabaseHealth> {
  try {
    await ping(db);
  } catch (error) {
    return { reachable: false, error: error as Error };
  }
  const shipped = shippedFor(driverOf(db).provider);
  return { reachable: true, migrations: describeMigrationState(shipped, await appliedMigrationIds(db)) };
}

/** The PostgreSQL pool's connections by state; none on SQLite, which has one connection. */
export function poolConnections(db: Db): { total: number; idle: number; waiting: number } | undefined {
  const driver = driverOf(db);
  if (driver.provider !== "postgresql") return undefined;
  return { total: driver.pool.totalCount, idle: driver.pool.idleCount, waiting: driver.pool.waitingCount };
}
