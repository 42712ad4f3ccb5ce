import { prismaStores } from "@/lib/store/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceContextFor } from "@/lib/service-context";
import { parseDatabaseUrl } from "@/lib/config/database-url";
import { migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { closeDb, createPrismaClient } from "@/lib/db/prisma";
import { loadConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { checkHealth, handleHealthRequest } from "@/lib/server/check-health";
import { createTestDatabase, testProvider, useDatabaseForService, type TestDatabase } from "../helpers/test-database";

let database: TestDatabase;
const METRICS_TOKEN = "health-metrics-token-0123456789";

beforeAll(async () => {
  database = await createTestDatabase();
  useDatabaseForService(database.target);
});
afterAll(() => database.drop());

describe(`GET /api/health on ${testProvider()}`, () => {
  it("answers 200 with the status alone to anyone, without the database type or the migrations", async () => {
    const { GET } = await import("@/app/api/health/route");
    const response = await GET(new Request("http://localhost:3000/api/health"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  const health = (authorization?: string) =>
    handleHealthRequest(
      new Request("http://localhost:3000/api/health", { headers: authorization ? { authorization } : {} }),
      serviceContextFor(prismaStores(getDb()), { ...loadConfig(), metricsToken: METRICS_TOKEN }),
    );

  it("adds database reachability and migration state for the metrics token", async () => {
    expect(await (await health(`Bearer ${METRICS_TOKEN}`)).json()).toEqual({
      status: "ok",
      database: { provider: testProvider(), reachable: true },
      migrations: { applied: readMigrations(migrationsDirectory(), testProvider()).map((m) => m.id), pending: [] },
    });
  });

  it.each([undefined, `Bearer ${METRICS_TOKEN}x`, `Basic ${METRICS_TOKEN}`, "Bearer "])(
    "answers the status alone to the authorization %j",
    async (wrong) => {
      expect(await (await health(wrong)).json()).toEqual({ status: "ok" });
    },
  );

  it("reports pending migrations on a database that has none applied", async () => {
    const empty = await createTestDatabase({ migrate: false });
    try {
      const { httpStatus, report } = await checkHealth(prismaStores(empty.db), empty.target.provider);
      expect(httpStatus).toBe(200);
      expect(report.status).toBe("migrations_pending");
      expect(report.migrations?.pending).toContain("0001_identity");
    } finally {
      await empty.drop();
    }
  });

  it.each([
    ["sqlite", "file:/nonexistent-directory/optigate.db"],
    ["postgresql", "postgresql://postgres@127.0.0.1:1/optigate"],
  ])("answers 503 when the %s database is unreachable", async (_provider, url) => {
    const target = parseDatabaseUrl(url);
    const db = createPrismaClient(target);
    try {
      const { httpStatus, report } = await checkHealth(prismaStores(db), target.provider);
      expect(httpStatus).toBe(503);
      expect(report).toEqual({
        status: "database_unreachable",
        database: { provider: target.provider, reachable: false },
      });
    } finally {
      await closeDb(db).catch(() => undefined);
    }
  });
});
