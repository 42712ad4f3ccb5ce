/** Publishing: importing master catalog files (docs/catalog-format.md) as unreleased revisions, and releasing them. */
import { prismaStores } from "@/lib/store/stores";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { importCatalog, releaseRevision } from "@/lib/catalog/publishing/catalog-publishing";
import { listSupplierCatalogs } from "@/lib/store/catalog-store";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { schemaAccepts } from "../../helpers/xml-schema";

const service = useOAuthService();
const directory = mkdtempSync(path.join(tmpdir(), "optigate-publishing-"));
const EXAMPLE = readFileSync("docs/catalog-example.xml", "utf8");
const LENS = "demo-company-lens";

async function* chunksOf(text: string, size = 64 * 1024): AsyncIterable<string> {
  for (let offset = 0; offset < text.length; offset += size) yield text.slice(offset, offset + size);
}

/** Everything an import may write, to show that a refused one wrote nothing. */
async function counts() {
  const { db } = service().database;
  return Promise.all([db.catalog.count(), db.catalogRevision.count(), db.catalogArticle.count()]);
}

async function subCatalog(params: Record<string, string>) {
  const { GET } = await import("@/app/getSubCatalog.ashx/route");
  return GET(new Request(`${ISSUER}/getSubCatalog.ashx?${new URLSearchParams(params)}`));
}

async function catalogList() {
  const { GET } = await import("@/app/getCatalogInfos.ashx/route");
  return (await GET(new Request(`${ISSUER}/getCatalogInfos.ashx`))).text();
}

/** A file of `count` articles, with `tail` in place of the last article's closing part. */
function generated(
  count: number,
  options: { supplierID?: string; catalogID?: string; resourceKey?: string; last?: string } = {},
): string {
  const articles = Array.from(
    { length: count },
    (_, index) =>
      `<Article articleNumber="G-${index}" customerGroup="0"><Name>Glas ${index}</Name><PurchasePrice>${index % 100}.25</PurchasePrice></Article>\n`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<Catalog supplierID="${options.supplierID ?? "DLAG"}" catalogID="${options.catalogID ?? "catalog_CH.xml"}" resourceKey="${options.resourceKey ?? "DLAG-CH"}" name="Demo Lens Schweiz" language="de" format="SPECTARIS" formatVersion="2.1">
<Revision validStartDate="2027-01-01"/>
<ValidCountries><ValidCountry>CH</ValidCountry></ValidCountries>
<ProductGroups/>
<Articles>
${articles.join("")}${options.last ?? ""}</Articles>
</Catalog>
`;
}

describe(`catalog publishing on ${testProvider()}`, () => {
  it("imports the example file as the next revision, unreleased until it is released", async () => {
    const { db } = service().database;
    const result = await importCatalog(prismaStores(db), chunksOf(EXAMPLE, 7), { supplierCompanyId: LENS });
    expect(result).toEqual({
      ok: true,
      supplierId: "DLAG",
      catalogId: "catalog.xml",
      resourceKey: "DLAG-DE",
      revision: 4,
      articles: 3,
    });

    const lens = { companyID: LENS, catalogResourceKey: "DLAG-DE", revision: "4" };
    expect((await subCatalog(lens)).status).toBe(403);
    expect(await catalogList()).toContain("<RevisionNumber>2</RevisionNumber>");
    const catalogs = await listSupplierCatalogs(db, LENS);
    expect(catalogs.find((c) => c.catalogId === "catalog.xml")!.revisions[0]).toMatchObject({
      number: 4,
      released: false,
      complete: true,
      articles: 3,
      comment: "Frühjahr 2027",
    });

    await releaseRevision(prismaStores(db), { supplierCompanyId: LENS, catalogId: "catalog.xml", revision: 4 });
    const list = await catalogList();
    expect(list).toContain("<CatalogName>Demo Lens Katalog Deutschland</CatalogName>");
    expect(list).toMatch(/<RevisionNumber>4<\/RevisionNumber><RevisionComment>Frühjahr 2027<\/RevisionComment>/);
    expect(list).toContain("<ValidStartDate>01.03.2027</ValidStartDate><ValidEndDate>31.12.2027</ValidEndDate>");
    expect(list).toContain("<ProductGroup>Kontaktlinsen</ProductGroup>");
    const download = await (await subCatalog(lens)).text();
    expect(download).toContain(
      '<Article articleNumber="WL-100" customerGroup="0" whiteLabel="true"><Name>Premium-Glas 1.6</Name><PurchasePrice>0.00</PurchasePrice><RetailPrice>119.00</RetailPrice><StartDate>01.03.2027</StartDate><EndDate>30.09.2027</EndDate></Article>',
    );
    expect(await db.auditEvent.count({ where: { type: { in: ["catalog.imported", "catalog.released"] } } })).toBe(2);

    await expect(
      releaseRevision(prismaStores(db), { supplierCompanyId: LENS, catalogId: "catalog.xml", revision: 4 }),
    ).rejects.toThrow(/already released/);
    await expect(
      releaseRevision(prismaStores(db), { supplierCompanyId: LENS, catalogId: "catalog.xml", revision: 99 }),
    ).rejects.toThrow(/has no revision 99/);
  });

  it("creates a new catalog with its first revision, and reads the same whatever the chunk boundaries", async () => {
    const { db } = service().database;
    const file = generated(2500);
    const result = await importCatalog(prismaStores(db), chunksOf(file, 1000));
    expect(result).toMatchObject({ ok: true, catalogId: "catalog_CH.xml", revision: 1, articles: 2500 });
    const revision = await db.catalogRevision.findFirstOrThrow({ where: { catalog: { catalogId: "catalog_CH.xml" } } });
    expect(await db.catalogArticle.count({ where: { revisionId: revision.id } })).toBe(2500);
    expect(
      await db.catalogArticle.findFirstOrThrow({ where: { revisionId: revision.id, articleNumber: "G-1234" } }),
    ).toMatchObject({ genericName: "Glas 1234", purchasePriceCents: 3425, retailPriceCents: null, whiteLabel: false });
    expect(
      (await importCatalog(prismaStores(db), chunksOf(file))).ok &&
        (await db.catalogRevision.count({ where: { catalogId: revision.catalogId } })),
    ).toBe(2);
  });

  it("tells the listener the articles read so far, rising to all of them, also in a file it refuses", async () => {
    const { db } = service().database;
    const told: number[] = [];
    const onProgress = (done: number) => void told.push(done);
    const file = generated(2500, { catalogID: "catalog_PL.xml", resourceKey: "DLAG-PL" });
    const result = await importCatalog(prismaStores(db), chunksOf(file, 16 * 1024), { onProgress });
    expect(result).toMatchObject({ ok: true, articles: 2500 });
    expect(told.length).toBeGreaterThan(10);
    expect(told.every((done, index) => index === 0 || done > told[index - 1])).toBe(true);
    expect(told.at(-1)).toBe(2500);

    told.length = 0;
    const refused = generated(2500, { catalogID: "catalog_PL.xml", resourceKey: "DLAG-OTHER" });
    expect((await importCatalog(prismaStores(db), chunksOf(refused, 16 * 1024), { onProgress })).ok).toBe(false);
    expect(told.at(-1)).toBe(2500);
  });

  const badFiles: { name: string; xml: string; line: number; message: RegExp; xsdAccepts?: boolean }[] = [
    {
      name: "not well-formed",
      xml: EXAMPLE.replace("</Name>\n      <PurchasePrice>31.00", "\n      <PurchasePrice>31.00"),
      line: 29,
      message: /^the file is not well-formed XML: unexpected close tag$/,
    },
    {
      name: "a price with a comma",
      xml: EXAMPLE.replace("<PurchasePrice>10.90", "<PurchasePrice>10,90"),
      line: 20,
      message: /<PurchasePrice> "10,90" is not an amount/,
    },
    {
      name: "an impossible date",
      xml: EXAMPLE.replace("<EndDate>2027-09-30", "<EndDate>2027-09-31"),
      line: 28,
      message: /<EndDate> "2027-09-31" is not a date/,
    },
    {
      name: "an article without a name",
      xml: EXAMPLE.replace("<Name>Einstärkenglas 1.5</Name>\n      <PurchasePrice>12.40", "<PurchasePrice>12.40"),
      line: 14,
      message: /^<Article> needs a <Name> before <PurchasePrice>$/,
    },
    {
      name: "an unknown element",
      xml: EXAMPLE.replace(
        '<RetailPrice>49.00</RetailPrice>\n    </Article>\n    <Article articleNumber="SV-150"',
        '<Colour>blue</Colour>\n    </Article>\n    <Article articleNumber="SV-150"',
      ),
      line: 16,
      message: /<Colour> is not expected here in <Article>/,
    },
    {
      name: "an unknown attribute",
      xml: EXAMPLE.replace('customerGroup="5"', 'customerGroup="5" colour="blue"'),
      line: 18,
      message: /<Article> has no attribute colour/,
    },
    {
      name: "sections out of order",
      xml: EXAMPLE.replace(
        /(<ValidCountries>[\s\S]*?<\/ValidCountries>)(\s*)(<ProductGroups>[\s\S]*?<\/ProductGroups>)/,
        "$3$2$1",
      ),
      line: 5,
      message: /^<Catalog> needs a <ValidCountries> before <ProductGroups>$/,
    },
    {
      name: "the same article twice in a group",
      xml: EXAMPLE.replace('articleNumber="SV-150" customerGroup="5"', 'articleNumber="SV-150" customerGroup="0"'),
      line: 18,
      message: /<Article> SV-150 appears twice in customer group 0/,
    },
    {
      name: "an end date before the start date",
      xml: EXAMPLE.replace("<EndDate>2027-09-30", "<EndDate>2027-02-28"),
      line: 23,
      message: /EndDate is before StartDate/,
      xsdAccepts: true,
    },
    {
      name: "an unknown supplier",
      xml: EXAMPLE.replace('supplierID="DLAG"', 'supplierID="NOPE"'),
      line: 2,
      message: /no supplier with supplierID "NOPE"/,
      xsdAccepts: true,
    },
    {
      name: "another resourceKey for an existing catalog",
      xml: EXAMPLE.replace('resourceKey="DLAG-DE"', 'resourceKey="DLAG-XX"'),
      line: 2,
      message: /has the resourceKey "DLAG-DE", not "DLAG-XX"/,
      xsdAccepts: true,
    },
    {
      name: "a wrong root element",
      xml: '<?xml version="1.0"?>\n<Katalog/>',
      line: 2,
      message: /<Katalog> is not expected here in the document/,
    },
    // Runs without markup that the streaming parser would have to hold whole (the review's memory finding).
    {
      name: "a text of 100,000 characters",
      xml: EXAMPLE.replace("<Name>Einstärkenglas 1.5</Name>", `<Name>${"x".repeat(100_000)}</Name>`),
      line: 14,
      message: /a text, attribute value, name or comment is longer than 65,536 characters/,
    },
    {
      name: "an attribute value of 100,000 characters",
      xml: EXAMPLE.replace(
        'articleNumber="SV-150" customerGroup="5"',
        `articleNumber="${"x".repeat(100_000)}" customerGroup="5"`,
      ),
      line: 18,
      message: /longer than 65,536 characters/,
    },
    {
      name: "a comment of 100,000 characters",
      xml: EXAMPLE.replace("<Catalog ", `<!--${"x".repeat(100_000)}-->\n<Catalog `),
      line: 2,
      message: /longer than 65,536 characters/,
      xsdAccepts: true,
    },
  ];

  it.each(badFiles)(
    "refuses a file with $name, naming the line, and writes nothing",
    async ({ xml, line, message, xsdAccepts: accepted }) => {
      const before = await counts();
      const result = await importCatalog(prismaStores(service().database.db), chunksOf(xml));
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors[0]).toMatchObject({ line, message: expect.stringMatching(message) });
      expect(await counts()).toEqual(before);
      expect(schemaAccepts("docs/catalog.xsd", xml)).toBe(accepted ?? false);
    },
  );

  it("leaves nothing behind when the error comes after thousands of written articles", async () => {
    const before = await counts();
    const result = await importCatalog(
      prismaStores(service().database.db),
      chunksOf(
        generated(3500, {
          catalogID: "catalog_FR.xml",
          resourceKey: "DLAG-FR",
          last: '<Article articleNumber="LAST" customerGroup="0"><Name>x</Name><PurchasePrice>-1</PurchasePrice></Article>\n',
        }),
      ),
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          line: 3507,
          message: expect.stringMatching(/"-1" is not an amount/),
          problem: {
            key: "invalidValue",
            values: { element: "PurchasePrice" },
            reason: { key: "notAmount", values: { value: "-1" } },
          },
        },
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses another supplier's file on the upload path, and reports at most 20 errors", async () => {
    const before = await counts();
    const foreign = await importCatalog(prismaStores(service().database.db), chunksOf(EXAMPLE), {
      supplierCompanyId: "demo-company-frames",
    });
    expect(foreign).toEqual({
      ok: false,
      errors: [
        {
          line: 2,
          message: expect.stringMatching(/only publish your own company's catalogs/),
          problem: { key: "otherSupplier", values: { supplierId: "DLAG" } },
        },
      ],
    });
    const broken = generated(50).replace(/<PurchasePrice>/g, "<PurchasePrice>x");
    const many = await importCatalog(prismaStores(service().database.db), chunksOf(broken));
    expect(!many.ok && many.errors).toHaveLength(20);
    expect(!many.ok && many.unreported).toBe(30);
    expect(await counts()).toEqual(before);
  });

  it("reports every problem of a file in one pass: a refused supplier, a bad value and a duplicate article", async () => {
    const before = await counts();
    const xml = EXAMPLE.replace('supplierID="DLAG"', 'supplierID="NOPE"')
      .replace("<PurchasePrice>31.00", "<PurchasePrice>31,00")
      .replace('articleNumber="SV-150" customerGroup="5"', 'articleNumber="SV-150" customerGroup="0"');
    const result = await importCatalog(prismaStores(service().database.db), chunksOf(xml));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map(({ line, message }) => `${line}: ${message}`).sort()).toEqual([
      "18: <Article> SV-150 appears twice in customer group 0",
      expect.stringMatching(/^25: <PurchasePrice> "31,00" is not an amount/),
      '2: there is no supplier with supplierID "NOPE"',
    ]);
    // A long file, whose description is checked before its end is read: the refusal does not end the reading.
    const long = generated(2000, { supplierID: "NOPE" }).replace('articleNumber="G-1999"', 'articleNumber="G-3"');
    const longResult = await importCatalog(prismaStores(service().database.db), chunksOf(long, 4096));
    expect(!longResult.ok && longResult.errors.map((error) => error.message)).toEqual([
      'there is no supplier with supplierID "NOPE"',
      "<Article> G-3 appears twice in customer group 0",
    ]);
    expect(await counts()).toEqual(before);
  });

  it("reports a missing <ProductGroups> once, and still checks the articles after it", async () => {
    const xml = EXAMPLE.replace(/<ProductGroups>[\s\S]*?<\/ProductGroups>\s*/, "").replace(
      "<PurchasePrice>31.00",
      "<PurchasePrice>31,00",
    );
    const result = await importCatalog(prismaStores(service().database.db), chunksOf(xml));
    expect(!result.ok && result.errors.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      "8: <Catalog> needs a <ProductGroups> before <Articles>",
      expect.stringMatching(/^21: <PurchasePrice> "31,00" is not an amount/),
    ]);
  });

  it("clears an import that was cut off an hour ago, and will not release an incomplete revision", async () => {
    const { db } = service().database;
    const catalog = await db.catalog.findFirstOrThrow({ where: { catalogId: "catalog_AT.xml" } });
    const stale = await db.catalogRevision.create({
      data: {
        catalogId: catalog.id,
        number: 2,
        publishedAt: new Date(Date.now() - 2 * 3600_000),
        validFrom: new Date(),
        complete: false,
      },
    });
    await expect(
      releaseRevision(prismaStores(db), { supplierCompanyId: LENS, catalogId: "catalog_AT.xml", revision: 2 }),
    ).rejects.toThrow(/still being imported/);
    const result = await importCatalog(
      prismaStores(db),
      chunksOf(generated(3, { catalogID: "catalog_AT.xml", resourceKey: "DLAG-AT" })),
    );
    expect(result).toMatchObject({ ok: true, revision: 2 });
    expect(await db.catalogRevision.findUnique({ where: { id: stale.id } })).toBeNull();
  });

  it("works from the operator CLI: import, list, release, and errors as file:line: reason", async () => {
    const { db } = service().database;
    const out: string[] = [];
    const err: string[] = [];
    const admin = async (...args: string[]) => {
      const result = await runAdmin(db, args);
      out.push(...result.stdoutLines);
      err.push(...result.stderrLines);
      return result.code;
    };
    const good = path.join(directory, "spring.xml");
    writeFileSync(
      good,
      EXAMPLE.replace(
        'catalogID="catalog.xml" resourceKey="DLAG-DE"',
        'catalogID="catalog_NL.xml" resourceKey="DLAG-NL"',
      ),
    );
    expect(await admin("catalogs", "import", good)).toBe(0);
    expect(out.join("\n")).toMatch(
      /Imported revision 1 of catalog catalog_NL.xml \(DLAG-NL\) of supplier DLAG: 3 articles, not released yet\.\nRelease it with: npm run admin -- catalogs release DLAG catalog_NL.xml 1/,
    );
    expect(await admin("catalogs", "list", "DLAG")).toBe(0);
    expect(out).toContainEqual(
      expect.stringMatching(/^CATALOG_ID +RESOURCE_KEY +REVISION +STATE +ARTICLES +PUBLISHED +COMMENT$/),
    );
    expect(out).toContainEqual(
      expect.stringMatching(/^catalog_NL\.xml +DLAG-NL +1 +not released +3 +\d{4}-\d\d-\d\d \d\d:\d\d/),
    );
    out.length = 0;
    expect(await admin("catalogs", "list", "DLAG", "--json")).toBe(0);
    expect(JSON.parse(out.join("\n"))).toContainEqual({
      catalog_id: "catalog_NL.xml",
      resource_key: "DLAG-NL",
      name: "Demo Lens Katalog Deutschland",
      revisions: [
        {
          revision: 1,
          released: false,
          complete: true,
          articles: 3,
          published_at: expect.any(String),
          comment: expect.any(String),
        },
      ],
    });
    expect(await admin("catalogs", "release", "DLAG", "catalog_NL.xml", "1")).toBe(0);
    expect(out.at(-1)).toBe("Released revision 1 of catalog catalog_NL.xml of supplier DLAG.");

    const bad = path.join(directory, "bad.xml");
    writeFileSync(bad, EXAMPLE.replace("<PurchasePrice>10.90", "<PurchasePrice>10,90"));
    expect(await admin("catalogs", "import", bad)).toBe(1);
    expect(err).toEqual([
      `${bad}:20: <PurchasePrice> "10,90" is not an amount such as 12.50 (at most 7 digits before and 2 after the point)`,
      `error: ${bad} was not imported (nothing was written)`,
    ]);
    const broken = path.join(directory, "broken.xml");
    writeFileSync(
      broken,
      generated(25, { catalogID: "catalog_BE.xml", resourceKey: "DLAG-BE" }).replace(
        /<PurchasePrice>/g,
        "<PurchasePrice>x",
      ),
    );
    err.length = 0;
    expect(await admin("catalogs", "import", broken)).toBe(1);
    expect(err).toHaveLength(22);
    expect(err.slice(-2)).toEqual([
      `${broken}: and 5 more errors`,
      `error: ${broken} was not imported (nothing was written)`,
    ]);

    const single = path.join(directory, "single.xml");
    writeFileSync(single, generated(1, { catalogID: "catalog_LU.xml", resourceKey: "DLAG-LU" }));
    expect(await admin("catalogs", "import", single)).toBe(0);
    expect(out.at(-2)).toMatch(/: 1 article, not released yet\.$/);
    expect(await admin("catalogs", "list", "DLAG")).toBe(0);
    expect(out).toContainEqual(expect.stringMatching(/^catalog_LU\.xml +DLAG-LU +1 +not released +1 +\d{4}-/));

    expect(await admin("catalogs", "import", path.join(directory, "missing.xml"))).toBe(1);
    expect(err.at(-1)).toBe(`error: file not found: ${path.join(directory, "missing.xml")}`);
    expect(await admin("catalogs", "release", "DLAG", "catalog_NL.xml", "one")).toBe(2);
  });
});
