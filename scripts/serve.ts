/**
 * `npm start` / `npm run demo`: checks the configuration, prepares the database (migrations, scopes, keys, demo data
 * when DEMO_DATA=1), then serves: the hot protocol endpoints from the lean front (lib/server/fast-front.ts),
 * everything else from the Next.js application. `--dev` serves with Next's development server instead.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { loadConfig } from "@/lib/config";
import { appendForwardedFor } from "@/lib/http/client-address";
import { fastRoute, serveFast } from "@/lib/server/fast-front";
import { prepareDatabase } from "@/lib/db/prepare-database";
import { exitWithStartupError } from "./startup-error";

const dev = process.argv.includes("--dev");
// `next start` sets this too; the configuration reads it to apply production rules.
(process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";

async function main(): Promise<void> {
  const config = loadConfig();
  if (!dev && !existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    console.error("No production build found: run `npm run build` first (or `npm run demo`, which builds).");
    process.exit(1);
  }
  const prepared = await prepareDatabase(config);
  if (prepared.appliedMigrations.length > 0) console.log(`Applied migrations: ${prepared.appliedMigrations.join(", ")}`);
  if (prepared.demoDataCreated.length > 0) console.log(`Loaded demo data: ${prepared.demoDataCreated.join(", ")}`);

  const app = next({ dev, dir: process.cwd(), port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((request, response) => {
    request.headers["x-forwarded-for"] = appendForwardedFor(request.headers["x-forwarded-for"], request.socket.remoteAddress);
    const fast = fastRoute(request.method, request.url);
    if (fast) void serveFast(fast, request, response);
    else void handle(request, response);
  });
  server.on("error", exitWithStartupError);
  server.listen(config.port, () => {
    console.log(`OptiGate is serving ${config.publicUrl} (port ${config.port}, ${config.database.provider})`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch(exitWithStartupError);
