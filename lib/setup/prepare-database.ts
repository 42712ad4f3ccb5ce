/**
 * What `npm run migrate` and the start script do to the database before serving: apply pending migrations, write the
 * built-in scopes, create the signing keys on first start, and load the demo data set when DEMO_DATA=1. Where only
 * Next.js serves (Vercel), the build command runs `npm run migrate`, so the route handlers find everything ready.
 */
import { ClientRegistryError } from "@/lib/admin/client-registry";
import { prismaStores } from "@/lib/store/stores";
import { issuersWithoutReach } from "@/lib/store/trusted-issuer-store";
import type { Config } from "@/lib/config";
import { loadDemoData } from "@/lib/setup/load-demo-data";
import { applyMigrations } from "@/lib/db/migrator";
import { getPrismaClient } from "@/lib/db/prisma";
import { syncScopes } from "@/lib/setup/sync-scopes";
import { ensureSigningKeys } from "@/lib/oauth/keys/signing-keys";
import { SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";

/** Prisma's code for a unique key violation. */
const UNIQUE_VIOLATION = "P2002";
const MAX_ATTEMPTS = 20;

/** Prisma's code for an operation that waited too long, as for SQLite's write lock while another process prepares. */
const TIMED_OUT = "P1008";

/**
 * Another process is preparing the same database: it wrote the row first (a unique key met, or a client the registry
 * found), or it held SQLite's write lock for longer than the busy timeout.
 */
const isConflict = (error: unknown) =>
  [UNIQUE_VIOLATION, TIMED_OUT].includes((error as { code?: string }).code ?? "") ||
  (error instanceof ClientRegistryError && error.code === "already_exists");

export interface PreparedDatabase {
  appliedMigrations: string[];
  createdKeys: string[];
  demoDataCreated: string[];
  /** What the operator must act on, one line each (printed at start-up). */
  warnings: string[];
}

async function warningsOf(db: ReturnType<typeof getPrismaClient>): Promise<string[]> {
  return (await issuersWithoutReach(db)).map(
    (issuer) =>
      `trusted issuer ${issuer} names neither companies nor email_domains: its tokens are refused until the operator registers it again with them (npm run admin -- federation add)`,
  );
}

export async function prepareDatabase(
  config: Pick<Config, "database" | "apiScopePrefix" | "demoData" | "secretKey" | "publicUrl">,
): Promise<PreparedDatabase> {
  const appliedMigrations = await applyMigrations(config.database);
  const db = getPrismaClient(config.database);
  // Each step writes only what is missing. Two instances starting at once may both find a row missing and one of
  // them then meets the other's row: it starts the steps again, and finds that row there. Every conflict means the
  // other instance got further, so a busy machine needs more attempts, never endless ones.
  for (let attempt = 1; ; attempt++) {
    try {
      await syncScopes(db, config.apiScopePrefix);
      const createdKeys = await ensureSigningKeys(
        prismaStores(db).signingKeys,
        [...SIGNING_ALGORITHMS],
        config.secretKey,
      );
      const demo = config.demoData ? await loadDemoData(db, config) : { created: [] };
      return { appliedMigrations, createdKeys, demoDataCreated: demo.created, warnings: await warningsOf(db) };
    } catch (error) {
      if (!isConflict(error) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * Math.min(attempt, 5)));
    }
  }
}
