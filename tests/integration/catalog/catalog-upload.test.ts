/** The supplier's catalog page: uploading a master catalog file and releasing the revision (POST /interaction/catalogs). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IMPORT_RESULT_COOKIE } from "@/lib/http/flash-cookies";
import type { ShownImportResult } from "@/lib/forms/catalog-submission";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const EXAMPLE = readFileSync("docs/catalog-example.xml", "utf8");
const upload = (agent: UserAgent, content: string, headers: Record<string, string> = {}) =>
  agent.upload(
    "catalogs",
    "/interaction/catalogs",
    { action: "import" },
    { field: "catalog", name: "catalog.xml", content },
    headers,
  );
const result = (agent: UserAgent) =>
  unsealedCookieValue<ShownImportResult>(IMPORT_RESULT_COOKIE, agent.cookies.get(IMPORT_RESULT_COOKIE), SECRET_KEY);
const revisions = () => service().database.db.catalogRevision.count();

describe(`catalog upload page handler on ${testProvider()}`, () => {
  it("imports an uploaded file for the supplier's own company, then releases it after the separate step", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const response = await upload(supplier, EXAMPLE);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/catalogs");
    expect(response.headers.get("set-cookie")).toMatch(
      /^optigate_catalog_import=.*; Path=\/portal\/catalogs; SameSite=Lax; HttpOnly; Max-Age=120$/,
    );
    expect(result(supplier)).toEqual({ ok: true, catalogId: "catalog.xml", revision: 4, articles: 3 });
    const revision = await service().database.db.catalogRevision.findFirstOrThrow({
      where: { number: 4, catalog: { catalogId: "catalog.xml", supplierCompanyId: "demo-company-lens" } },
    });
    expect(revision.released).toBe(false);

    const released = await supplier.post("catalogs", "/interaction/catalogs", {
      action: "release",
      catalog_id: "catalog.xml",
      revision: "4",
    });
    expect(released.headers.get("location")).toBe("/portal/catalogs?released=catalog.xml%3A4");
    expect(
      (await service().database.db.catalogRevision.findUniqueOrThrow({ where: { id: revision.id } })).released,
    ).toBe(true);
    const again = await supplier.post("catalogs", "/interaction/catalogs", {
      action: "release",
      catalog_id: "catalog.xml",
      revision: "4",
    });
    expect(again.headers.get("location")).toBe("/portal/catalogs?error=already_released");
    const unknown = await supplier.post("catalogs", "/interaction/catalogs", {
      action: "release",
      catalog_id: "catalog.xml",
      revision: "x",
    });
    expect(unknown.headers.get("location")).toBe("/portal/catalogs?error=not_found");
  });

  it("shows a bad file's errors with their lines and writes nothing, also for another supplier's file", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const before = await revisions();
    await upload(
      supplier,
      EXAMPLE.replace("<PurchasePrice>10.90", "<PurchasePrice>10,90").replace(
        "<EndDate>2027-09-30",
        "<EndDate>2027-13-30",
      ),
    );
    expect(result(supplier)).toEqual({
      ok: false,
      more: 0,
      errors: [
        {
          line: 20,
          problem: {
            key: "invalidValue",
            values: { element: "PurchasePrice" },
            reason: { key: "notAmount", values: { value: "10,90" } },
          },
        },
        {
          line: 28,
          problem: {
            key: "invalidValue",
            values: { element: "EndDate" },
            reason: { key: "notDate", values: { value: "2027-13-30" } },
          },
        },
      ],
    });
    await upload(supplier, EXAMPLE.replace('supplierID="DLAG"', 'supplierID="FWG"'));
    expect(result(supplier)).toEqual({
      ok: false,
      more: 0,
      errors: [{ line: 2, problem: { key: "otherSupplier", values: { supplierId: "FWG" } } }],
    });
    // A file broken throughout: the page shows the first errors, cut to what a cookie holds, and counts the rest.
    const name = "x".repeat(500);
    const broken = EXAMPLE.replace(/<PurchasePrice>/g, `<PurchasePrice>${name}`);
    await upload(
      supplier,
      broken.replace(
        /<\/Articles>/,
        `${'<Article articleNumber="A" customerGroup="0"><Name>a</Name><PurchasePrice>-</PurchasePrice></Article>'.repeat(12)}</Articles>`,
      ),
    );
    const many = result(supplier)!;
    expect(many).toMatchObject({ ok: false, more: 7 });
    expect(!many.ok && many.errors).toHaveLength(8);
    expect(!many.ok && many.errors[0].problem.reason?.values?.value).toMatch(/^x{79}…$/);
    expect(supplier.cookies.get(IMPORT_RESULT_COOKIE)!.length).toBeLessThan(4000);
    // Element names of 100 three-byte characters, ten times: fewer errors are shown, and the rest counted.
    const wide = EXAMPLE.replace(
      "</Articles>",
      `${"<名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素名前がとても長い要素/>".repeat(10)}</Articles>`,
    );
    await upload(supplier, wide);
    const cut = result(supplier)!;
    expect(!cut.ok && cut.errors.length + cut.more).toBe(10);
    expect(!cut.ok && cut.errors.length).toBeLessThan(10);
    expect(supplier.cookies.get(IMPORT_RESULT_COOKIE)!.length).toBeLessThan(4000);
    expect(await revisions()).toBe(before);
  });

  it("is for signed-in users of supplier companies with a valid form only", async () => {
    const anonymous = await upload(new UserAgent(), EXAMPLE);
    expect(anonymous.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fcatalogs");
    const optician = await upload(await signedInAgent("optician@demo.test", "Optician#2026"), EXAMPLE);
    expect(optician.status).toBe(403);
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const forged = await supplier.upload(
      "catalogs",
      "/interaction/catalogs",
      { action: "import", csrf_token: "forged" },
      { field: "catalog", name: "c.xml", content: EXAMPLE },
    );
    expect(forged.headers.get("location")).toBe("/portal/catalogs?error=form_expired");
    const empty = await upload(supplier, "");
    expect(empty.headers.get("location")).toBe("/portal/catalogs?error=no_file");
    const huge = await upload(supplier, EXAMPLE, { "content-length": String(101 * 1024 * 1024) });
    expect(huge.headers.get("location")).toBe("/portal/catalogs?error=too_large");
  });
});
