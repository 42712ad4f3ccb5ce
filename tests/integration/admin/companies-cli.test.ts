/** `npm run admin -- companies …`: JSON on success, one error line and nothing written on bad input. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { formRequest, ISSUER, refreshDemoWeb, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const directory = mkdtempSync(path.join(tmpdir(), "optigate-companies-cli-"));
const admin = (...args: string[]) => runAdmin(service().database.db, args);

function file(name: string, content: unknown): string {
  const target = path.join(directory, name);
  writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

const counts = async () => {
  const db = service().database.db;
  return Promise.all([db.company.count(), db.supplierWebService.count(), db.auditEvent.count()]);
};
const catalogListVersion = async () =>
  (await service().database.db.changeCounter.findUnique({ where: { name: "catalog_list" } }))?.value ?? 0;

const LENS_MAKER = {
  id: "lens-maker",
  kind: "supplier",
  name: "Lens Maker GmbH",
  country: "DE",
  supplier_id: "LMG",
  name1: "Lens Maker",
  portal_url: "https://portal.lens-maker.example/",
  web_services: [
    { type: "PlaceOrder", name: "Orders", url: "https://api.lens-maker.example/orders", priority: 2 },
    { type: "ASN", name: "Shipping notices", url: "https://api.lens-maker.example/asn" },
  ],
};

describe(`companies CLI on ${testProvider()}`, () => {
  it("adds a supplier with its web services, audited, and shows, lists and updates it as JSON", async () => {
    const before = await catalogListVersion();
    const added = await admin("companies", "add", file("lens-maker.json", LENS_MAKER));
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(added.stdout)).toEqual({
      id: "lens-maker",
      kind: "supplier",
      name: "Lens Maker GmbH",
      country: "DE",
      active: true,
      require_second_factor: false,
      sign_in_notices: false,
      supplier_id: "LMG",
      name1: "Lens Maker",
      name2: null,
      portal_url: "https://portal.lens-maker.example/",
      web_services: [
        { type: "ASN", name: "Shipping notices", url: "https://api.lens-maker.example/asn", priority: 1 },
        { type: "PlaceOrder", name: "Orders", url: "https://api.lens-maker.example/orders", priority: 2 },
      ],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The catalog list shows suppliers' names and web services: it is built anew.
    expect(await catalogListVersion()).toBe(before + 1);
    const event = await service().database.db.auditEvent.findFirstOrThrow({ where: { type: "company.added" } });
    expect(JSON.parse(event.details!)).toEqual({ companyId: "lens-maker", companyKind: "supplier" });

    const shown = await admin("companies", "show", "lens-maker");
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(added.stdout));
    const listed = JSON.parse((await admin("companies", "list", "--json")).stdout) as { id: string }[];
    expect(listed.map((company) => company.id)).toContain("lens-maker");
    expect(listed.map((company) => company.id)).toContain("demo-company-optician");

    const renamed = { ...LENS_MAKER, name: "Lens Maker AG", web_services: [] };
    const updated = await admin("companies", "update", "lens-maker", file("renamed.json", renamed));
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ name: "Lens Maker AG", web_services: [] });
    expect(await service().database.db.supplierWebService.count({ where: { supplierCompanyId: "lens-maker" } })).toBe(
      0,
    );
  });

  it("adds an optician under a generated id, without supplier fields", async () => {
    const added = await admin(
      "companies",
      "add",
      file("optician.json", { kind: "eye_care_professional", name: "Optik Nord", country: "AT" }),
    );
    expect(added.code).toBe(0);
    const company = JSON.parse(added.stdout);
    expect(company).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: "eye_care_professional",
      name: "Optik Nord",
      country: "AT",
      active: true,
      require_second_factor: false,
      sign_in_notices: false,
      created_at: expect.any(String),
    });
  });

  const refusals: [string, string[], () => unknown, RegExp][] = [
    ["an unknown field", ["add"], () => ({ ...LENS_MAKER, id: "x1", supplierid: "X" }), /did you mean "supplier_id"/],
    ["an unknown kind", ["add"], () => ({ kind: "optician", name: "X", country: "DE" }), /kind must be one of/],
    ["a country that is none", ["add"], () => ({ kind: "operator", name: "X", country: "ZZ" }), /ISO 3166-1 alpha-2/],
    ["a lower-case country", ["add"], () => ({ kind: "operator", name: "X", country: "de" }), /in capitals/],
    [
      "supplier fields on an optician",
      ["add"],
      () => ({ kind: "eye_care_professional", name: "X", country: "DE", supplier_id: "X" }),
      /supplier_id is for suppliers only/,
    ],
    [
      "a supplier without supplier_id",
      ["add"],
      () => ({ kind: "supplier", name: "X", country: "DE" }),
      /needs its supplier_id/,
    ],
    [
      "a portal URL that is not one",
      ["add"],
      () => ({ ...LENS_MAKER, id: "x2", supplier_id: "X2", portal_url: "javascript:alert(1)" }),
      /portal_url must be an http or https URL/,
    ],
    [
      "a web service priority of 0",
      ["add"],
      () => ({
        ...LENS_MAKER,
        id: "x3",
        supplier_id: "X3",
        web_services: [{ type: "ASN", name: "A", url: "https://a.example", priority: 0 }],
      }),
      /web_services\[0\]\.priority/,
    ],
    [
      "a name with control characters",
      ["add"],
      () => ({ kind: "operator", name: "A\u0007B", country: "DE" }),
      /control characters/,
    ],
    [
      "a taken id",
      ["add"],
      () => ({ id: "demo-company-lens", kind: "operator", name: "X", country: "DE" }),
      /company "demo-company-lens" exists already/,
    ],
    [
      "a taken supplier id",
      ["add"],
      () => ({ ...LENS_MAKER, id: "x4", supplier_id: "DLAG" }),
      /supplier_id "DLAG" belongs to another company/,
    ],
    [
      "a change of kind",
      ["update", "demo-company-optician"],
      () => ({ kind: "supplier", name: "X", country: "DE", supplier_id: "X5" }),
      /kind cannot change/,
    ],
    [
      "another company's id in the file",
      ["update", "demo-company-optician"],
      () => ({ id: "demo-company-lens", kind: "eye_care_professional", name: "X", country: "DE" }),
      /names company "demo-company-lens"/,
    ],
    [
      "an unknown company",
      ["update", "nobody"],
      () => ({ kind: "operator", name: "X", country: "DE" }),
      /there is no company "nobody"/,
    ],
    ["not JSON", ["add"], () => "{", /JSON/],
  ];

  it.each(refusals)("refuses %s with one line, writing nothing", async (_, command, content, message) => {
    const before = await counts();
    const result = await admin("companies", ...command, file("refused.json", content()));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  const silentLogin = async (username: string, password: string) => {
    const { POST } = await import("@/app/services/login/SilentLogin/route");
    return POST(formRequest("/services/login/SilentLogin", { username, password }));
  };

  it("deactivates a company's users with it: signed out, refused, their tokens revoked; activating restores them", async () => {
    const db = service().database.db;
    // The optician signs in to demo-web, which holds a refresh token.
    const tokens = await userTokens("optician@demo.test", "Optician#2026", "openid offline_access");
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const sessions = await db.loginSession.findMany({
      where: { userId: user.id, endedAt: null },
      select: { id: true },
    });
    expect(sessions.length).toBeGreaterThan(0);

    const deactivated = await admin("companies", "deactivate", "demo-company-optician");
    expect(deactivated.code).toBe(0);
    expect(JSON.parse(deactivated.stdout)).toMatchObject({ id: "demo-company-optician", active: false });
    expect(deactivated.stderr).toBe("Deactivated Augenoptik Demo GmbH: 1 user signed out and refused.");
    expect(deactivated.announced.sort()).toEqual(sessions.map((session) => session.id).sort());
    expect(await db.loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(0);
    expect(await db.refreshToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
    expect((await refreshDemoWeb(tokens.refresh_token!)).status).toBe(400);
    expect((await silentLogin("optician@demo.test", "Optician#2026")).status).not.toBe(200);
    await expect(signedInAgent("optician@demo.test", "Optician#2026")).rejects.toThrow(/could not sign in/);
    expect(
      await db.auditEvent.count({
        where: { type: "company.deactivated", details: { contains: "demo-company-optician" } },
      }),
    ).toBe(1);
    expect((await admin("companies", "deactivate", "demo-company-optician")).stderr).toMatch(/inactive already/);

    const activated = await admin("companies", "activate", "demo-company-optician");
    expect(activated.code).toBe(0);
    expect(JSON.parse(activated.stdout)).toMatchObject({ active: true });
    expect(activated.stderr).toBe("Activated Augenoptik Demo GmbH and 1 user deactivated with it.");
    expect((await silentLogin("optician@demo.test", "Optician#2026")).status).toBe(200);
    expect((await admin("companies", "activate", "demo-company-optician")).stderr).toMatch(/active already/);
    expect((await admin("companies", "deactivate", "nobody")).stderr).toMatch(/there is no company "nobody"/);
    // The operator company is never deactivated: its people run the platform.
    const operatorCompany = await admin("companies", "deactivate", "demo-company-operator");
    expect(operatorCompany.code).not.toBe(0);
    expect(operatorCompany.stderr).toMatch(/"demo-company-operator" is the operator: it cannot be deactivated/);
    expect((await db.company.findUniqueOrThrow({ where: { id: "demo-company-operator" } })).active).toBe(true);
  });

  it("keeps a user deactivated on their own deactivated when the company comes back", async () => {
    const db = service().database.db;
    await db.user.update({ where: { email: "frames@demo.test" }, data: { active: false } });
    await admin("companies", "deactivate", "demo-company-frames");
    await admin("companies", "activate", "demo-company-frames");
    expect(await db.user.findUniqueOrThrow({ where: { email: "frames@demo.test" } })).toMatchObject({
      active: false,
      suspendedWithCompany: false,
    });
    await db.user.update({ where: { email: "frames@demo.test" }, data: { active: true } });
  });

  it("no longer lists or serves a deactivated supplier's catalogs, and does again once it is active", async () => {
    const { GET } = await import("@/app/getCatalogInfos.ashx/route");
    const listed = async () =>
      (await (await GET(new Request(`${ISSUER}/getCatalogInfos.ashx`))).text()).includes("FWG");
    expect(await listed()).toBe(true);
    await admin("companies", "deactivate", "demo-company-frames");
    expect(await listed()).toBe(false);
    const { GET: subCatalog } = await import("@/app/getSubCatalog.ashx/route");
    const download = await subCatalog(
      new Request(`${ISSUER}/getSubCatalog.ashx?companyID=demo-company-frames&catalogResourceKey=FWG-DE&revision=1`),
    );
    expect(download.status).toBe(404);
    await admin("companies", "activate", "demo-company-frames");
    expect(await listed()).toBe(true);
  });

  it("names a missing argument and an unknown command", async () => {
    expect((await admin("companies", "show")).stderr).toMatch(/companies show needs <id>/);
    expect((await admin("companies", "lst")).stderr).toMatch(/did you mean "companies list"/);
    expect((await admin("company", "list")).stderr).toMatch(/did you mean "companies list"/);
  });
});
