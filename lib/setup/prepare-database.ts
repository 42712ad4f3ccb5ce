/**
 * What `npm run migrate` and the start script do to the database before serving: apply pending migrations, write the
 * built-in scopes, create the signing keys on first start, and load the demo data set when DEMO_DATA=1. Where only
 * Next.js serves (Vercel), the build command runs `npm run migrate`, so the route handlers find everything ready.
 */
import type { Config } from "@/lib/config";
import { loadDemoData } from "@/lib/setup/load-demo-data";
import { applyMigrations } from "@/lib/db/migrator";
import { getPrismaClient } from "@/lib/db/prisma";
import { syncScopes } from "@/lib/setup/sync-scopes";
import { ensureSigningKeys, requiredAlgorithms } from "@/lib/oauth/keys/signing-keys";

/** Prisma's code for a unique key violation. */
const UNIQUE_VIOLATION = "P2002";
const MAX_ATTEMPTS = 5;

export interface PreparedDatabase {
  appliedMigrations: string[];
  createdKeys: string[];
  demoDataCreated: string[];
}

export async function prepareDatabase(
  config: Pick<Config, "database" | "apiScopePrefix" | "demoData" | "secretKey" | "tokenSigningAlg">,
): Promise<PreparedDatabase> {
  const appliedMigrations = await applyMigrations(config.database);
  const db = getPrismaClient(config.database);
  // Each step writes only what is missing. Two instances starting at once may both find a row missing and one of
  // them then meets the other's row: it starts the steps again, and finds that row there.
  for (let attempt = 1; ; attempt++) {
    try {
      await syncScopes(db, config.apiScopePrefix);
      const createdKeys = await ensureSigningKeys(db, requiredAlgorithms(config.tokenSigningAlg), config.secretKey);
      const demo = config.demoData ? await loadDemoData(db, config.apiScopePrefix) : { created: [] };
      return { appliedMigrations, createdKeys, demoDataCreated: demo.created };
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
