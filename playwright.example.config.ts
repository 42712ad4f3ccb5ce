/**
 * The Auth.js example (examples/nextjs-authjs) against OptiGate, in Debian's Chromium: OptiGate as `npm run demo`
 * serves it (scripts/serve.ts, demo data, a fresh SQLite database) on a free port, the example as its README starts
 * it, on port 3001 where the demo data registers it. Run `npm install` in the example first (`npm run test:example`
 * does).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { COMPILED_SERVER } from "./scripts/compiled-server";
import { ACCESS_TOKEN_SECONDS, RENEWAL_DUE_AFTER_SECONDS } from "./tests/example/renewal";
import { CHROMIUM, freePort } from "./tests/helpers/browser-run";

process.env.E2E_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "optigate-example-"));

const optigateUrl = `http://localhost:${process.env.E2E_PORT}`;
export const EXAMPLE_URL = "http://localhost:3001";

export default defineConfig({
  testDir: "tests/example",
  outputDir: "test-results",
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  use: {
    baseURL: EXAMPLE_URL,
    launchOptions: CHROMIUM,
  },
  webServer: [
    {
      command: `node ${COMPILED_SERVER}`,
      url: `${optigateUrl}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: process.env.E2E_PORT,
        PUBLIC_URL: optigateUrl,
        DATABASE_URL: `file:${path.join(process.env.E2E_DATA_DIR, "optigate.db")}`,
        SECRET_KEY: "example-secret-key-0123456789-abcdefghijklmnop",
        DEMO_DATA: "1",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
    {
      command: "npm --prefix examples/nextjs-authjs start",
      url: EXAMPLE_URL,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: "ignore",
      stderr: "pipe",
      // The .env of the example names OptiGate at port 3000; the environment wins over it. A renewal is due soon
      // after each access token is issued, so that the test sees the refresh token grant at work.
      env: {
        OPTIGATE_ISSUER: optigateUrl,
        REFRESH_MARGIN_SECONDS: String(ACCESS_TOKEN_SECONDS - RENEWAL_DUE_AFTER_SECONDS),
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  ],
});
