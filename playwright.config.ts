/**
 * Browser tests: Debian's Chromium against the production build, served by the compiled start script (`npm start`) on a free port with a
 * fresh SQLite database and the demo data. Run `npm run build` first (`npm run test:e2e` does).
 * E2E_SERVER=next serves with plain `next start` after `npm run migrate` instead, as where only Next.js serves
 * (Vercel); E2E_DATABASE_URL then names the (fresh) database, such as a PostgreSQL one made for the run. Next.js then
 * rebuilds request URLs with another host (127.0.0.1, its -H) than the issuer's, as behind a platform's proxy: what
 * compares a URL with the issuer's endpoints must take them from PUBLIC_URL.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { COMPILED_SERVER } from "./scripts/compiled-server";
import { CHROMIUM, freePort } from "./tests/helpers/browser-run";

// Chosen once in the main process; the workers inherit them through the environment.
process.env.E2E_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "optigate-e2e-"));
process.env.E2E_DATABASE_URL ??= `file:${path.join(process.env.E2E_DATA_DIR, "optigate.db")}`;
process.env.E2E_SECRET_KEY ??= "e2e-secret-key-0123456789-abcdefghijklmnop";

const port = process.env.E2E_PORT;
const baseURL = `http://localhost:${port}`;
const nextOnly = process.env.E2E_SERVER === "next";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL,
    launchOptions: CHROMIUM,
  },
  // The Node server's own answers to malformed requests (and its log), its shutdown, two of it on one database, the
  // demo and the bundle are tested in the serve.ts run only; so are the pages' accessibility checks and the screenshot
  // tests (the same pages either way).
  testIgnore: nextOnly
    ? [
        "**/malformed-requests.spec.ts",
        "**/graceful-shutdown.spec.ts",
        "**/invitation.spec.ts",
        "**/password-self-service.spec.ts",
        "**/several-instances.spec.ts",
        "**/bundle.spec.ts",
        "**/logs.spec.ts",
        "**/demo.spec.ts",
        "**/accessibility.spec.ts",
      ]
    : [],
  grepInvert: nextOnly ? /@screenshots/ : undefined,
  webServer: {
    command: nextOnly
      ? `node --import tsx scripts/migrate.ts && node node_modules/next/dist/bin/next start -H 127.0.0.1 -p ${port} --keepAliveTimeout 65000`
      : `node ${COMPILED_SERVER}`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: port,
      PUBLIC_URL: baseURL,
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      SECRET_KEY: process.env.E2E_SECRET_KEY,
      DEMO_DATA: "1",
      // Company sign-in's tests start the company's provider on the loopback (tests/e2e/company-sso.spec.ts).
      OUTBOUND_ALLOW: "127.0.0.0/8,::1/128",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
