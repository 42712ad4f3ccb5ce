/**
 * What start-up does to the database before serving: apply pending migrations, write the built-in scopes, create the
 * signing keys on first start, and load the demo data set when DEMO_DATA=1.
 */
import type { Config } from "@/lib/config";
import { loadDemoData } from "@/lib/db/load-demo-data";
import { migrate, migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { getPrismaClient } from "@/lib/db/prisma";
import { openSqlConnection } from "@/lib/db/sql-connection";
import { syncScopes } from "@/lib/db/sync-scopes";
import { ensureSigningKeys, requiredAlgorithms } from "@/lib/oauth/keys/signing-keys";
import type { DatabaseTarget } from "@/lib/db/database-url";

export interface PreparedDatabase {
  appliedMigrations: string[];
  demoDataCreated: string[];
}

export async function applyMigrations(target: DatabaseTarget): Promise<string[]> {
  const connection = await openSqlConnection(target);
  try {
    return await migrate(connection, readMigrations(migrationsDirectory(target.provider)));
  } finally {
    await connection.close();
  }
}

export async function prepareDatabase(
  config: Pick<Config, "database" | "apiScopePrefix" | "demoData" | "secretKey" | "tokenSigningAlg">,
): Promise<PreparedDatabase> {
  const appliedMigrations = await applyMigrations(config.database);
  const db = getPrismaClient(config.database);
  await syncScopes(db, config.apiScopePrefix);
  await ensureSigningKeys(db, requiredAlgorithms(config.tokenSigningAlg), config.secretKey);
  const demo = config.demoData ? await loadDemoData(db, config.apiScopePrefix) : { created: [] };
  return { appliedMigrations, demoDataCreated: demo.created };
}
