/**
 * `npm start` / `npm run demo`: checks the configuration, prepares the database (migrations, scopes, keys, demo data
 * when DEMO_DATA=1), then serves: the hot protocol endpoints from the lean front (lib/server/fast-front.ts),
 * everything else from the Next.js application. `--dev` serves with Next's development server instead. SIGTERM or
 * SIGINT stops it gracefully: no new connections, requests in flight finish (up to 30 s), the database connections
 * close, exit code 0; a second signal exits at once.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import next from "next";
import { loadConfig } from "@/lib/config";
import { createNodeServer } from "@/lib/server/node-server";
import { closeStores, storesFor } from "@/lib/store/stores";
import { stopMailDelivery } from "@/lib/mail/mail-delivery";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { PURGE_INTERVAL_MS } from "@/lib/store/expired-rows-store";
import { logger } from "@/lib/observability/logger";
import { startDraining } from "@/lib/server/draining";
import { stopTracing } from "@/lib/observability/tracing";
import { purgeAndAnnounce } from "@/lib/server/scheduled-work";
import { serviceContextFor } from "@/lib/service-context";
import { exitWithStartupError } from "./startup-error";
import { flushAllActivity } from "@/lib/store/activity-tally";

const dev = process.argv.includes("--dev");
/** How long requests in flight may take to finish after SIGTERM (a sub-catalog download, say). */
const SHUTDOWN_GRACE_MS = 30_000;
// `next start` sets this too; the configuration reads it to apply production rules.
(process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";

/**
 * A production server takes Next.js's configuration as the build resolved it (required-server-files.json), as Next's
 * own standalone server does: the bundle has no next.config.mjs, and loading it (with its plugins and their native
 * compilers) cost `npm start` about 15 MB for nothing the build had not already decided.
 */
function useBuildConfig(): void {
  const file = path.join(process.cwd(), ".next", "required-server-files.json");
  if (dev || !existsSync(file)) return;
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(file, "utf8")).config);
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!dev && !existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    console.error("No production build found: run `npm run build` first (or `npm run demo`, which builds).");
    process.exit(1);
  }
  const prepared = await prepareDatabase(config, undefined, config.migrateOnStart);
  if (prepared.appliedMigrations.length > 0)
    logger.info(
      { migrations: prepared.appliedMigrations },
      `Applied migrations: ${prepared.appliedMigrations.join(", ")}`,
    );
  if (prepared.demoDataCreated.length > 0)
    logger.info({ demoData: prepared.demoDataCreated }, `Loaded demo data: ${prepared.demoDataCreated.join(", ")}`);
  for (const warning of prepared.warnings) logger.warn(warning);

  useBuildConfig();
  const app = next({ dev, dir: process.cwd(), port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createNodeServer(config.publicUrl, handle);
  server.on("error", exitWithStartupError);
  server.listen(config.port, () => {
    const { publicUrl, port, database } = config;
    logger.info(
      { publicUrl, port, database: database.provider, node: process.version },
      `OptiGate is serving ${publicUrl} (port ${port}, ${database.provider})`,
    );
  });
  // Expired tokens, codes, tickets, sessions and counters go in bounded batches, now and every few minutes; vendors
  // are told of secrets that expire soon.
  const purge = () =>
    purgeAndAnnounce(serviceContextFor(storesFor(config.database), config)).catch((error: Error) =>
      logger.warn({ err: error }, "purge of expired rows failed"),
    );
  void purge();
  setInterval(purge, PURGE_INTERVAL_MS).unref();
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, `${signal} again: exiting at once`);
      logger.flush();
      process.exit(1);
    }
    stopping = true;
    startDraining();
    logger.info(
      { signal, graceSeconds: SHUTDOWN_GRACE_MS / 1000 },
      `${signal}: no new connections; finishing the requests in flight`,
    );
    server.close(() => {
      flushAllActivity()
        .catch((error: Error) => logger.warn({ err: error }, "the last activity counts could not be written"))
        .then(() => stopMailDelivery())
        .then(() => stopTracing())
        .then(() => closeStores(config.database))
        .catch((error: Error) => logger.warn({ err: error }, "closing the database connections failed"))
        .finally(() => {
          logger.info("stopped");
          logger.flush();
          process.exit(0);
        });
    });
    server.closeIdleConnections();
    // What is still running then (a slow download) is cut off.
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch(exitWithStartupError);
