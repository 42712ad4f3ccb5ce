import { prismaStores } from "@/lib/store/stores";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { ISSUER, formRequest, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { schemaAccepts, validateAgainst } from "../../helpers/xml-schema";

const service = useOAuthService();
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (name) => ["Company", "CatalogInfo", "ValidCountry", "ProductGroup", "WebService"].includes(name),
  parseTagValue: false,
});

async function catalogInfos(query = "") {
  const { GET } = await import("@/app/getCatalogInfos.ashx/route");
  return GET(new Request(`${ISSUER}/getCatalogInfos.ashx${query}`));
}

async function GET_WITH(query: string, headers: Record<string, string>) {
  const { GET } = await import("@/app/getCatalogInfos.ashx/route");
  return GET(new Request(`${ISSUER}/getCatalogInfos.ashx${query}`, { headers }));
}

async function list(query = "") {
  const response = await catalogInfos(query);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/xml; charset=utf-8");
  const xml = await response.text();
  validateAgainst("docs/catalog-infos.xsd", xml); // every list must satisfy the schema
  return parser.parse(xml).CatalogInfos as { Company?: Record<string, any>[] };
}

async function ticketFor(username: string, password: string): Promise<string> {
  const { POST } = await import("@/app/services/login/SilentLogin/route");
  const response = await POST(formRequest("/services/login/SilentLogin", { username, password }));
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.ticket).toMatch(/^[0-9a-f-]{36}$/);
  expect(new Date(body.expires).getTime() - Date.now()).toBeGreaterThan(7.9 * 3600_000);
  return body.ticket;
}

describe(`GET /getCatalogInfos.ashx on ${testProvider()}`, () => {
  it("is held to docs/catalog-infos.xsd, which notices a list that breaks it", async () => {
    const xml = await (await catalogInfos("?webServices")).text();
    expect(schemaAccepts("docs/catalog-infos.xsd", xml)).toBe(true);
    expect(
      schemaAccepts("docs/catalog-infos.xsd", xml.replace("<ValidStartDate>01.04.2026", "<ValidStartDate>2026-04-01")),
    ).toBe(false);
    expect(
      schemaAccepts("docs/catalog-infos.xsd", xml.replace('webServiceType="PlaceOrder"', 'webServiceType="Order"')),
    ).toBe(false);
    expect(schemaAccepts("docs/catalog-infos.xsd", xml.replace(/<RevisionComment>[^<]*<\/RevisionComment>/, ""))).toBe(
      false,
    );
  });

  it("lists every supplier's catalogs with their latest released revision", async () => {
    const { Company } = await list();
    expect(Company!.map((c) => c["@companyID"]).sort()).toEqual(["demo-company-frames", "demo-company-lens"]);
    const lens = Company!.find((c) => c["@companyID"] === "demo-company-lens")!;
    expect(lens).toMatchObject({
      "@supplierID": "DLAG",
      "@name1": "Demo Lens",
      "@name2": "AG",
      "@portalUrl": "https://portal.demo.test/suppliers/demo-lens",
    });
    expect(lens["@clientID"]).toBeUndefined();
    const german = lens.CatalogInfo.find((c: any) => c.CatalogID === "catalog.xml");
    expect(german).toMatchObject({
      CatalogName: "Demo Lens Katalog Deutschland",
      ResourceKey: "DLAG-DE",
      RevisionNumber: "2",
      RevisionComment: "Revision 2",
      RevisionDateTime: "2026-04-01T08:00:00",
      CatalogLanguage: "de",
      CatalogFormat: "SPECTARIS",
      CatalogFormatVersion: "2.1",
      ValidCountries: { ValidCountry: ["DE"] },
      ValidStartDate: "01.04.2026",
      ProductGroups: { ProductGroup: ["Brillengläser", "Kontaktlinsen"] },
    });
    expect(german.ValidEndDate).toBeUndefined();
    expect(german.ClientID).toBeUndefined();
    expect(lens.CatalogInfo.find((c: any) => c.CatalogID === "catalog_AT.xml").ValidEndDate).toBe("31.03.2027");
    expect(lens.WebServices).toBeUndefined();
  });

  it("filters by country and product groups, and adds web services on request", async () => {
    const austria = await list("?validCountry=at");
    expect(
      austria.Company!.flatMap((c) => c.CatalogInfo.map((i: any) => `${c["@companyID"]}/${i.CatalogID}`)).sort(),
    ).toEqual(["demo-company-frames/catalog.xml", "demo-company-lens/catalog_AT.xml"]);
    const lenses = await list(`?productGroups=${encodeURIComponent("Brillengläser;Kontaktlinsen")}`);
    expect(lenses.Company!.flatMap((c) => c.CatalogInfo.map((i: any) => i.ResourceKey))).toEqual(["DLAG-DE"]);
    expect((await list("?validCountry=FR")).Company).toBeUndefined();
    const withServices = await list("?webServices");
    const services = withServices.Company!.find((c) => c["@companyID"] === "demo-company-lens")!.WebServices.WebService;
    expect(services.map((s: any) => s["@webServiceType"]).sort()).toEqual([
      "ASN",
      "OrderConfig",
      "OrderResponse",
      "PlaceOrder",
    ]);
    expect(services[0]).toMatchObject({
      "@webServiceURL": expect.stringMatching(/^https:\/\//),
      "@webServicePriority": "1",
    });
  });

  it("with a ticket lists only the registered catalogs, with ClientID and SubscriptionStatus", async () => {
    const { Company } = await list(`?ticket=${await ticketFor("optician@demo.test", "Optician#2026")}`);
    expect(Company).toHaveLength(1);
    expect(Company![0]["@clientID"]).toBe("100234");
    expect(Company![0].CatalogInfo).toEqual([
      expect.objectContaining({ CatalogID: "catalog.xml", ClientID: "100234", SubscriptionStatus: "Subscribed" }),
    ]);
  });

  it.each(["requested", "rejected", "withdrawn"])(
    "with a ticket reads the customer link from the active registration only, not from a %s one",
    async (status) => {
      const ticket = await ticketFor("optician@demo.test", "Optician#2026");
      const db = service().database.db;
      await db.supplierRegistration.updateMany({ data: { status } });
      try {
        expect((await list(`?ticket=${ticket}`)).Company).toBeUndefined();
      } finally {
        await db.supplierRegistration.updateMany({ data: { status: "active" } });
      }
      expect((await list(`?ticket=${ticket}`)).Company).toHaveLength(1);
    },
  );

  it("tags the anonymous list, answers a matching If-None-Match with 304, and changes the tag when a revision is released", async () => {
    const first = await catalogInfos("?validCountry=DE");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("public, no-cache, no-transform");
    const again = await GET_WITH("?validCountry=DE", { "if-none-match": `W/${etag}, "other"` });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await GET_WITH("?validCountry=AT", { "if-none-match": etag })).status).toBe(200);
    expect((await GET_WITH("?validCountry=DE", { "if-none-match": '"stale"' })).status).toBe(200);
    // With a ticket the list is the user's own: only the user's cache keeps it, and it has no date to vouch for.
    const ticket = await ticketFor("optician@demo.test", "Optician#2026");
    const personal = await catalogInfos(`?ticket=${ticket}`);
    expect(personal.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    expect(personal.headers.get("etag")).not.toBe(etag);
    expect(personal.headers.get("last-modified")).toBeNull();
    expect(personal.headers.get("cache-control")).toBe("private, no-cache, no-transform");
    const personalAgain = await GET_WITH(`?ticket=${ticket}`, { "if-none-match": personal.headers.get("etag")! });
    expect(personalAgain.status).toBe(304);

    const { releaseRevision } = await import("@/lib/catalog/publishing/catalog-publishing");
    const db = service().database.db;
    await db.catalogRevision.updateMany({
      where: { number: 3, catalog: { catalogId: "catalog.xml", supplierCompanyId: "demo-company-lens" } },
      data: { comment: "third" },
    });
    await releaseRevision(prismaStores(db), {
      supplierCompanyId: "demo-company-lens",
      catalogId: "catalog.xml",
      revision: 3,
    });
    const changed = await GET_WITH("?validCountry=DE", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await changed.text()).toContain(
      "<RevisionNumber>3</RevisionNumber><RevisionComment>third</RevisionComment>",
    );
  });

  it("answers bad parameters with 400 and bad tickets with 401 and 403, as plain text", async () => {
    const bad = await catalogInfos("?validCountry=Germany");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await bad.text()).toMatch(/two-letter/);
    expect((await catalogInfos("?ticket=not-a-guid")).status).toBe(400);
    expect((await catalogInfos(`?ticket=${crypto.randomUUID()}`)).status).toBe(401);

    const db = service().database.db;
    const ticket = await ticketFor("supplier@demo.test", "Supplier#2026");
    await db.ticket.updateMany({
      where: { user: { email: "supplier@demo.test" } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await (await catalogInfos(`?ticket=${ticket}`)).text()).toMatch(/expired/);
    const another = await ticketFor("supplier@demo.test", "Supplier#2026");
    await db.user.update({ where: { email: "supplier@demo.test" }, data: { active: false } });
    try {
      expect((await catalogInfos(`?ticket=${another}`)).status).toBe(403);
    } finally {
      await db.user.update({ where: { email: "supplier@demo.test" }, data: { active: true } });
    }
  });
});
