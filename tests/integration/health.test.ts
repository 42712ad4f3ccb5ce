import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "@/lib/config/database-url";
import { migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { closeDb, createPrismaClient } from "@/lib/db/prisma";
import { checkHealth } from "@/lib/health/check-health";
import { createTestDatabase, testProvider, useDatabaseForService, type TestDatabase } from "../helpers/test-database";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  useDatabaseForService(database.target);
});
afterAll(() => database.drop());

describe(`GET /api/health on ${testProvider()}`, () => {
  it("answers 200 with database reachability and migration state", async () => {
    const { GET } = await import("@/app/api/health/route");
    const response = await GET(new Request("http://localhost:3000/api/health"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      status: "ok",
      database: { provider: testProvider(), reachable: true },
      migrations: { applied: readMigrations(migrationsDirectory(), testProvider()).map((m) => m.id), pending: [] },
    });
  });

  it("reports pending migrations on a database that has none applied", async () => {
    const empty = await createTestDatabase({ migrate: false });
    try {
      const { httpStatus, report } = await checkHealth(empty.db, empty.target.provider);
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
      const { httpStatus, report } = await checkHealth(db, target.provider);
      expect(httpStatus).toBe(503);
      expect(report).toEqual({ status: "database_unreachable", database: { provider: target.provider, reachable: false } });
    } finally {
      await closeDb(db).catch(() => undefined);
    }
  });
});
