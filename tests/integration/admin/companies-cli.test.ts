/** `npm run admin -- companies …` (CONTRACT §9): JSON on success, one error line and nothing written on bad input. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { useOAuthService } from "../../helpers/oauth-service";
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
    const listed = JSON.parse((await admin("companies", "list")).stdout) as { id: string }[];
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

  it("names a missing argument and an unknown command", async () => {
    expect((await admin("companies", "show")).stderr).toMatch(/companies show needs <id>/);
    expect((await admin("companies", "lst")).stderr).toMatch(/did you mean "companies list"/);
    expect((await admin("company", "list")).stderr).toMatch(/did you mean "companies list"/);
  });
});
