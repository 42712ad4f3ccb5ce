import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/crypto/password";
import { hashToken } from "@/lib/crypto/tokens";
import { loadDemoData } from "@/lib/db/load-demo-data";
import { syncScopes } from "@/lib/db/sync-scopes";
import { demoUsers } from "@/prisma/demo-data";
import { createTestDatabase, testProvider, type TestDatabase } from "../helpers/test-database";

let database: TestDatabase;

async function snapshot() {
  const { db } = database;
  return {
    companies: await db.company.findMany({ orderBy: { id: "asc" } }),
    users: await db.user.findMany({ orderBy: { email: "asc" } }),
    clients: await db.client.findMany({ orderBy: { id: "asc" } }),
    secrets: await db.clientSecret.findMany({ orderBy: { id: "asc" } }),
    scopes: await db.scope.findMany({ orderBy: { name: "asc" } }),
    audit: await db.auditEvent.count(),
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await syncScopes(database.db, "platform");
});
afterAll(() => database.drop());

describe(`demo data on ${testProvider()}`, () => {
  it("loads the contract's companies, users and clients", async () => {
    const result = await loadDemoData(database.db, "platform");
    expect(result.created).toHaveLength(3 + 3 + 5);
    const { companies, users, clients } = await snapshot();
    expect(companies.map((c) => [c.name, c.kind])).toEqual(
      expect.arrayContaining([["Augenoptik Demo GmbH", "eye_care_professional"], ["Demo Lens AG", "supplier"], ["OptiGate Operations", "operator"]]),
    );
    expect(users.map((u) => u.email)).toEqual(["admin@demo.test", "optician@demo.test", "supplier@demo.test"]);
    expect(clients.map((c) => [c.id, c.kind])).toEqual([
      ["demo-backend", "backend"],
      ["demo-implicit", "browser"],
      ["demo-native", "native"],
      ["demo-spa", "browser"],
      ["demo-web", "web"],
    ]);
    const native = clients.find((c) => c.id === "demo-native")!;
    expect(native.offlineAccess).toBe(true);
    expect(JSON.parse(clients.find((c) => c.id === "demo-backend")!.allowedScopes)).toEqual(["platform.catalogs.read", "platform.supplierreg.readwrite"]);
  });

  it("stores passwords and secrets only as hashes", async () => {
    const { users, secrets } = await snapshot();
    for (const demo of demoUsers) {
      const user = users.find((u) => u.email === demo.email)!;
      expect(user.passwordHash).not.toContain(demo.password);
      expect(await verifyPassword(demo.password, user.passwordHash)).toBe(true);
    }
    expect(secrets.map((s) => [s.clientId, s.secretHash]).sort()).toEqual([
      ["demo-backend", hashToken("demo-backend-secret")],
      ["demo-web", hashToken("demo-web-secret")],
    ]);
  });

  it("changes nothing when loaded a second time", async () => {
    const before = await snapshot();
    expect((await loadDemoData(database.db, "platform")).created).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
