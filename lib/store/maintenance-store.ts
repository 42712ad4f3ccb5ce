/**
 * What start-up, the health report, the metrics and the scheduled jobs do to the database as a whole: its health and
 * pool, the built-in scopes, purging what expired, and sealing stored secrets again under a new key.
 */
import type { Db } from "@/lib/db/prisma";
import { bindDb } from "@/lib/store/bind-db";
import { storeScopes, type ScopeRow } from "@/lib/store/consent-store";
import { purgeUntilDrained, type PurgeCounts, type PurgeOptions } from "@/lib/store/expired-rows-store";
import { poolConnections, readDatabaseHealth, type DatabaseHealth } from "@/lib/store/health-store";
import { resealSecrets, type ResealCounts } from "@/lib/store/sealed-secret-store";

export interface MaintenanceStore {
  /** Whether the database answers, and how its migrations compare with this version's. */
  readHealth(): Promise<DatabaseHealth>;
  /** The PostgreSQL pool's connections by state; none on SQLite, which has one connection. */
  poolConnections(): { total: number; idle: number; waiting: number } | undefined;
  /** Writes the built-in scopes with their texts (JSON by language); only changed rows are written. */
  saveScopes(scopes: ScopeRow[]): Promise<void>;
  /** Deletes what expired, in rounds until none comes back full; the counts added up. */
  purgeExpired(options?: PurgeOptions): Promise<PurgeCounts>;
  /** Seals every stored secret under `secretKey` that is sealed under an older key. */
  resealSecrets(secretKey: string): Promise<Record<string, ResealCounts>>;
}

export const prismaMaintenanceStore = (db: Db): MaintenanceStore =>
  bindDb(db, {
    readHealth: readDatabaseHealth,
    poolConnections,
    saveScopes: storeScopes,
    purgeExpired: purgeUntilDrained,
    resealSecrets,
  });
