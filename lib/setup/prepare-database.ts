/**
 * What `npm run migrate` and the start script do to the database before serving: apply pending migrations, write the
 * built-in scopes, create the signing keys on first start, and load the demo data set when DEMO_DATA=1. Where only
 * Next.js serves (Vercel), the build command runs `npm run migrate`, so the route handlers find everything ready.
 */
import { ClientRegistryError } from "@/lib/admin/client-registry";
import { storesFor, type Stores } from "@/lib/store/stores";
import type { Config } from "@/lib/config";
import { applyMigrations, isConcurrentWrite } from "@/lib/store/database-setup";
import { syncScopes } from "@/lib/setup/sync-scopes";
import { ensureSigningKeys } from "@/lib/oauth/keys/signing-keys";
import { SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";
import type { ProgressListener } from "@/lib/observability/progress";

const MAX_ATTEMPTS = 20;

/**
 * Another process is preparing the same database: it wrote the row first (a unique key met, or a client the registry
 * found), or it held SQLite's write lock for longer than the busy timeout.
 */
const isConflict = (error: unknown) =>
  isConcurrentWrite(error) || (error instanceof ClientRegistryError && error.code === "already_exists");

export interface PreparedDatabase {
  appliedMigrations: string[];
  createdKeys: string[];
  demoDataCreated: string[];
  /** What the operator must act on, one line each (printed at start-up). */
  warnings: string[];
}

async function warningsOf(stores: Stores): Promise<string[]> {
  return (await stores.trustedIssuers.listWithoutReach()).map(
    (issuer) =>
      `trusted issuer ${issuer} names neither companies nor email_domains: its tokens are refused until the operator registers it again with them (npm run admin -- federation add)`,
  );
}

/** With MIGRATE_ON_START=0 a release step migrates: the start only says what it left pending. */
async function pendingWarning(stores: Stores): Promise<string | undefined> {
  const health = await stores.maintenance.readHealth();
  if (!health.reachable) throw health.error;
  const { pending } = health.migrations;
  if (pending.length === 0) return undefined;
  return `MIGRATE_ON_START=0 and ${pending.length} migration(s) pending (${pending.join(", ")}): run npm run migrate in the release step; /api/health/ready answers 503 until then`;
}

export async function prepareDatabase(
  config: Pick<Config, "database" | "apiScopePrefix" | "demoData" | "secretKey" | "publicUrl">,
  /** Told the migrations applied of those pending (`npm run migrate` draws it on a terminal). */
  onMigrationProgress?: ProgressListener,
  /** False where a release step migrates (MIGRATE_ON_START=0): pending migrations are only reported. */
  migrate = true,
): Promise<PreparedDatabase> {
  const stores = storesFor(config.database);
  const appliedMigrations = migrate ? await applyMigrations(config.database, onMigrationProgress) : [];
  const pending = migrate ? undefined : await pendingWarning(stores);
  if (pending) return { appliedMigrations, createdKeys: [], demoDataCreated: [], warnings: [pending] };
  // Each step writes only what is missing. Two instances starting at once may both find a row missing and one of
  // them then meets the other's row: it starts the steps again, and finds that row there. Every conflict means the
  // other instance got further, so a busy machine needs more attempts, never endless ones.
  for (let attempt = 1; ; attempt++) {
    try {
      await syncScopes(stores, config.apiScopePrefix);
      const createdKeys = await ensureSigningKeys(stores.signingKeys, [...SIGNING_ALGORITHMS], config.secretKey);
      // Loaded only when asked for: a server without demo data never holds their code (catalog files, hashing).
      const demo = config.demoData
        ? await (await import("@/lib/setup/load-demo-data")).loadDemoData(stores, config)
        : { created: [] };
      return { appliedMigrations, createdKeys, demoDataCreated: demo.created, warnings: await warningsOf(stores) };
    } catch (error) {
      if (!isConflict(error) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * Math.min(attempt, 5)));
    }
  }
}
