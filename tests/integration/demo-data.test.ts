import { prismaStores } from "@/lib/store/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/crypto/password";
import { hashToken } from "@/lib/crypto/tokens";
import { loadDemoData } from "@/lib/setup/load-demo-data";
import { syncScopes } from "@/lib/setup/sync-scopes";
import { demoUsers } from "@/prisma/demo-data";
import { createTestDatabase, testProvider, type TestDatabase } from "../helpers/test-database";
import { ISSUER, SECRET_KEY } from "../helpers/oauth-service";

const DEMO_CONFIG = { apiScopePrefix: "platform", publicUrl: ISSUER, secretKey: SECRET_KEY };

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
    invitations: await db.invitation.findMany({ orderBy: { email: "asc" } }),
    outbox: await db.outboxMessage.count(),
    catalogs: await db.catalog.findMany({ orderBy: { id: "asc" } }),
    revisions: await db.catalogRevision.findMany({ orderBy: { id: "asc" } }),
    articles: await db.catalogArticle.count(),
    webServices: await db.supplierWebService.count(),
    registrations: await db.supplierRegistration.findMany({
      include: { subscriptions: true, whiteLabelNames: true, history: true },
    }),
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await syncScopes(prismaStores(database.db), "platform");
});
afterAll(() => database.drop());

describe(`demo data on ${testProvider()}`, () => {
  it("loads the contract's companies, users and clients", async () => {
    const result = await loadDemoData(prismaStores(database.db), DEMO_CONFIG);
    expect(result.created).toEqual(
      expect.arrayContaining([
        "user optician@demo.test",
        "client demo-web",
        "catalog demo-company-lens/catalog.xml",
        "customer 100234",
        "request 100871",
      ]),
    );
    const { companies, users, clients } = await snapshot();
    expect(companies.map((c) => [c.name, c.kind])).toEqual(
      expect.arrayContaining([
        ["Augenoptik Demo GmbH", "eye_care_professional"],
        ["Demo Lens AG", "supplier"],
        ["OptiGate Operations", "operator"],
      ]),
    );
    expect(users.map((u) => [u.email, u.companyId, u.role])).toEqual([
      ["admin@demo.test", "demo-company-operator", "admin"],
      ["developer@demo.test", "demo-company-vendor", "developer"],
      ["frames@demo.test", "demo-company-frames", "user"],
      ["optician@demo.test", "demo-company-optician", "admin"],
      ["supplier@demo.test", "demo-company-lens", "user"],
    ]);
    expect(companies.find((c) => c.id === "demo-company-vendor")).toMatchObject({ kind: "software_vendor" });
    expect(clients.map((c) => [c.id, c.kind, c.status])).toEqual([
      ["demo-authjs", "web", "approved"],
      ["demo-backend", "backend", "approved"],
      ["demo-device", "native", "approved"],
      ["demo-implicit", "browser", "approved"],
      ["demo-native", "native", "approved"],
      ["demo-spa", "browser", "approved"],
      ["demo-web", "web", "approved"],
      // the software vendor's application, waiting for the operator's approval
      ["praxissoft-termine", "web", "pending"],
    ]);
    expect(clients.find((c) => c.id === "praxissoft-termine")).toMatchObject({ ownerCompanyId: "demo-company-vendor" });
    const native = clients.find((c) => c.id === "demo-native")!;
    expect(native.offlineAccess).toBe(true);
    // CONTRACT §14: the public device client.
    const device = clients.find((c) => c.id === "demo-device")!;
    expect(device).toMatchObject({ tokenEndpointAuthMethod: "none", redirectUris: "[]", refreshTokenPolicy: "rotate" });
    expect(JSON.parse(device.grantTypes)).toEqual(["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"]);
    expect(JSON.parse(device.allowedScopes)).toEqual(["openid", "profile", "offline_access", "platform.catalogs.read"]);
    expect(JSON.parse(clients.find((c) => c.id === "demo-backend")!.allowedScopes)).toEqual([
      "platform.catalogs.read",
      "platform.supplierreg.readwrite",
    ]);
  });

  it("loads the contract's catalogs, revisions, web services and the optician's customer relationship", async () => {
    const { db } = database;
    const lens = await db.company.findUniqueOrThrow({ where: { id: "demo-company-lens" } });
    expect(lens).toMatchObject({ kind: "supplier", supplierId: "DLAG", name1: "Demo Lens", name2: "AG" });
    const german = await db.catalog.findUniqueOrThrow({
      where: { supplierCompanyId_catalogId: { supplierCompanyId: lens.id, catalogId: "catalog.xml" } },
      include: { revisions: { orderBy: { number: "asc" } } },
    });
    expect(german).toMatchObject({ language: "de", format: "SPECTARIS" });
    expect(JSON.parse(german.validCountries)).toEqual(["DE"]);
    expect(german.revisions.map((r) => [r.number, r.released])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    const austrian = await db.catalog.findUniqueOrThrow({
      where: { supplierCompanyId_catalogId: { supplierCompanyId: lens.id, catalogId: "catalog_AT.xml" } },
      include: { revisions: true },
    });
    expect(JSON.parse(austrian.validCountries)).toEqual(["AT"]);
    expect(austrian.revisions.map((r) => [r.number, r.released])).toEqual([[1, true]]);
    expect(await db.catalog.count({ where: { supplierCompanyId: { not: lens.id } } })).toBe(1);

    const relationship = await db.supplierRegistration.findFirstOrThrow({
      where: { opticianCompanyId: "demo-company-optician" },
      include: { subscriptions: { include: { catalog: true } }, whiteLabelNames: true, history: true },
    });
    expect(relationship).toMatchObject({
      opticianCompanyId: "demo-company-optician",
      supplierCompanyId: lens.id,
      clientId: "100234",
      status: "active",
      open: true,
      version: 1,
    });
    expect(relationship.history.map((change) => change.status)).toEqual(["active"]);
    expect(JSON.parse(relationship.customerGroups)).toEqual([5]);
    expect(relationship.subscriptions.map((s) => [s.catalog.catalogId, s.status])).toEqual([
      ["catalog.xml", "Subscribed"],
    ]);
    expect(relationship.whiteLabelNames).toEqual([
      expect.objectContaining({ articleNumber: "WL-100", name: "Augenoptik Demo Premium 1.6" }),
    ]);
    const whiteLabel = await db.catalogArticle.findFirstOrThrow({
      where: { articleNumber: "WL-100", revision: { catalogId: german.id, number: 2 } },
    });
    expect(whiteLabel).toMatchObject({ whiteLabel: true, customerGroup: 0 });
    expect(
      await db.supplierWebService
        .findMany({ where: { supplierCompanyId: lens.id }, orderBy: { type: "asc" } })
        .then((rows) => rows.map((r) => r.type)),
    ).toEqual(["ASN", "OrderConfig", "OrderResponse", "PlaceOrder"]);
  });

  it("leaves a second optician's request at Demo Lens for the supplier to decide on", async () => {
    const requests = await database.db.supplierRegistration.findMany({
      where: { supplierCompanyId: "demo-company-lens", status: "requested" },
      include: { optician: true, subscriptions: { include: { catalog: true } }, history: true },
    });
    expect(requests).toEqual([
      expect.objectContaining({ clientId: "100871", open: true, customerGroups: "[]", version: 1 }),
    ]);
    const [request] = requests;
    expect([request.optician.name, request.optician.kind]).toEqual([
      "Optik Sonnenschein e.K.",
      "eye_care_professional",
    ]);
    expect(request.history.map((change) => change.status)).toEqual(["requested"]);
    expect(request.subscriptions.map((s) => [s.catalog.catalogId, s.status]).sort()).toEqual([
      ["catalog.xml", "Subscribed"],
      ["catalog_AT.xml", "Subscribed"],
    ]);
  });

  it("stores passwords and secrets only as hashes", async () => {
    const { users, secrets } = await snapshot();
    for (const demo of demoUsers) {
      const user = users.find((u) => u.email === demo.email)!;
      expect(user.passwordHash).not.toContain(demo.password);
      expect(await verifyPassword(demo.password, user.passwordHash)).toBe(true);
    }
    // The pending partner application got a first secret at registration, as every confidential one does; nobody
    // was shown it, so its developers make their own on the portal.
    const [pending, known] = [
      secrets.filter((s) => s.clientId === "praxissoft-termine"),
      secrets.filter((s) => s.clientId !== "praxissoft-termine"),
    ];
    expect(pending).toHaveLength(1);
    expect(known.map((s) => [s.clientId, s.secretHash]).sort()).toEqual([
      ["demo-authjs", hashToken("demo-authjs-secret")],
      ["demo-backend", hashToken("demo-backend-secret")],
      ["demo-web", hashToken("demo-web-secret")],
    ]);
  });

  it("has the optician's colleague invited, the mail waiting in the outbox", async () => {
    const invitation = await database.db.invitation.findUniqueOrThrow({ where: { email: "colleague@demo.test" } });
    const optician = await database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    expect(invitation).toMatchObject({
      companyId: "demo-company-optician",
      role: "user",
      language: "de",
      invitedByUserId: optician.id,
      acceptedAt: null,
    });
    expect(await database.db.outboxMessage.count({ where: { recipient: "colleague@demo.test" } })).toBe(1);
  });

  it("changes nothing when loaded a second time", async () => {
    const before = await snapshot();
    expect((await loadDemoData(prismaStores(database.db), DEMO_CONFIG)).created).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
