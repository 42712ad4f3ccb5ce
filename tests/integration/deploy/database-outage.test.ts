/**
 * PostgreSQL goes away while OptiGate runs (its connections terminated, new ones refused): requests that need the
 * database are answered 503 with one log line each and no stack, nothing else fails, and once the database accepts
 * connections again the same requests succeed on the same process, with its pool no larger than before.
 */
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { driverOf } from "@/lib/db/prisma";
import { logger } from "@/lib/observability/logger";
import { ROUTES } from "@/lib/server/routes";
import { basic, formRequest, ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const postgres = testProvider() === "postgresql";

async function asAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const databaseName = () => new URL(service().database.target.url).pathname.slice(1);
afterEach(async () => {
  if (postgres) await asAdmin(`ALTER DATABASE "${databaseName()}" ALLOW_CONNECTIONS true`);
});

describe.skipIf(!postgres)("a database outage on postgresql (skipped on SQLite: needs TEST_DATABASE_URL)", () => {
  it("answers 503 while the database is gone, logs one line per request, and serves again when it is back", async () => {
    const tokens = await userTokens(
      "optician@demo.test",
      "Optician#2026",
      "openid offline_access platform.supplierreg.read",
    );
    const requests: [string, () => Promise<Response>][] = [
      [
        "refresh",
        () =>
          ROUTES["/connect/token"].POST(
            formRequest(
              "/connect/token",
              { grant_type: "refresh_token", refresh_token: tokens.refresh_token! },
              { authorization: basic("demo-web", "demo-web-secret") },
            ),
          ),
      ],
      [
        "API",
        () =>
          ROUTES["/v2/[...path]"].GET(
            new Request(`${ISSUER}/v2/supplierregistrations`, {
              headers: { authorization: `Bearer ${tokens.access_token}` },
            }),
          ),
      ],
      [
        "SilentLogin",
        () =>
          ROUTES["/services/login/SilentLogin"].POST(
            formRequest("/services/login/SilentLogin", { username: "optician@demo.test", password: "Optician#2026" }),
          ),
      ],
      [
        "getSubCatalog",
        () =>
          ROUTES["/getSubCatalog.ashx"].GET(
            new Request(
              `${ISSUER}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2`,
            ),
          ),
      ],
      ["health", () => ROUTES["/api/health"].GET(new Request(`${ISSUER}/api/health`))],
    ];
    for (const [name, request] of requests) expect((await request()).status, name).toBe(200);
    const pool = (driverOf(getDb()) as { pool: pg.Pool }).pool;
    const poolBefore = pool.totalCount;

    const errors = vi.spyOn(logger, "error");
    try {
      await asAdmin(`ALTER DATABASE "${databaseName()}" ALLOW_CONNECTIONS false`);
      await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName()}'`);
      for (const [name, request] of requests) {
        const response = await request();
        expect(response.status, name).toBe(503);
        expect(await response.text(), name).not.toMatch(/\n\s+at /);
      }
      const logged = errors.mock.calls.map((call) => JSON.stringify(call));
      expect(logged.filter((line) => /the database is unavailable/.test(line)).length).toBe(requests.length - 1);
      // One line each, with what the database said and no stack.
      expect(logged.filter((line) => /"err"|\\n\s+at /.test(line))).toEqual([]);
    } finally {
      errors.mockRestore();
    }

    await asAdmin(`ALTER DATABASE "${databaseName()}" ALLOW_CONNECTIONS true`);
    for (const [name, request] of requests) expect((await request()).status, `${name} after the outage`).toBe(200);
    expect(pool.totalCount).toBeLessThanOrEqual(Math.max(poolBefore, 10));
  });
});
