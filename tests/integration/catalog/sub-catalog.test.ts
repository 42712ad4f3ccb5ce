import { XMLParser } from "fast-xml-parser";
import { prismaStores } from "@/lib/store/stores";
import { beforeAll, describe, expect, it } from "vitest";
import { issueTicket } from "@/lib/catalog/tickets";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { validateAgainst } from "../../helpers/xml-schema";

const service = useOAuthService();
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (name) => name === "Article",
  parseTagValue: false,
  parseAttributeValue: false,
});
let ticket: string;

async function download(params: Record<string, string>) {
  const { GET } = await import("@/app/getSubCatalog.ashx/route");
  return GET(new Request(`${ISSUER}/getSubCatalog.ashx?${new URLSearchParams(params)}`));
}

async function articles(params: Record<string, string>) {
  const response = await download(params);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/xml; charset=utf-8");
  const xml = await response.text();
  validateAgainst("docs/subcatalog.xsd", xml); // every document must satisfy the schema
  const document = parser.parse(xml).SubCatalog;
  return { header: document, articles: (document.Article ?? []) as Record<string, any>[] };
}

async function expectError(params: Record<string, string>, status: number, text: RegExp) {
  const response = await download(params);
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(await response.text()).toMatch(text);
}

const lens = { companyID: "demo-company-lens", catalogResourceKey: "DLAG-DE", revision: "2" };

beforeAll(async () => {
  const user = await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  ticket = (await issueTicket(prismaStores(service().database.db).tickets, user.id)).ticket;
});

describe(`GET /getSubCatalog.ashx on ${testProvider()}`, () => {
  it("without a ticket: German catalog only, customer group 0, purchase prices 0", async () => {
    const { header, articles: list } = await articles(lens);
    expect(header).toMatchObject({
      "@companyID": "demo-company-lens",
      "@supplierID": "DLAG",
      "@catalogID": "catalog.xml",
      "@resourceKey": "DLAG-DE",
      "@revision": "2",
      "@revisionDateTime": "2026-04-01T08:00:00",
    });
    expect(header["@clientID"]).toBeUndefined();
    expect(list.map((a) => a["@articleNumber"]).sort()).toEqual(["SV-150", "SV-160", "WL-100"]);
    expect(list.every((a) => a.PurchasePrice === "0.00" && a["@customerGroup"] === "0")).toBe(true);
    expect(list.find((a) => a["@articleNumber"] === "WL-100")!.Name).toBe("Premium-Glas 1.6");
    await expectError({ ...lens, catalogResourceKey: "DLAG-AT", revision: "1" }, 403, /ticket is required/);
  });

  it("with a ticket: group 0 and the customer's groups, customer-specific names, real prices, dates kept", async () => {
    const { header, articles: list } = await articles({ ...lens, ticket });
    expect(header["@clientID"]).toBe("100234");
    expect(list.map((a) => a["@articleNumber"]).sort()).toEqual(["PR-160", "SV-150", "SV-160", "WL-100"]);
    const whiteLabel = list.find((a) => a["@articleNumber"] === "WL-100");
    expect(whiteLabel).toMatchObject({
      Name: "Augenoptik Demo Premium 1.6",
      PurchasePrice: "45.90",
      RetailPrice: "119.00",
      "@whiteLabel": "true",
    });
    expect(list.find((a) => a["@articleNumber"] === "PR-160")).toMatchObject({
      StartDate: "01.01.2026",
      "@customerGroup": "5",
    });
    expect(list.find((a) => a["@articleNumber"] === "SV-150")!.PurchasePrice).toBe("19.10");
  });

  it("narrows to clientGroupID, accepts the CatalogID as key, and serves older revisions", async () => {
    expect((await articles({ ...lens, ticket, clientGroupID: "7" })).articles.map((a) => a["@customerGroup"])).toEqual([
      "0",
      "0",
      "0",
    ]);
    expect((await articles({ ...lens, ticket, clientGroupID: "5" })).articles).toHaveLength(4);
    expect((await articles({ ...lens, catalogResourceKey: "catalog.xml" })).header["@resourceKey"]).toBe("DLAG-DE");
    const first = await articles({ ...lens, revision: "1", ticket });
    expect(first.header["@revision"]).toBe("1");
    expect(first.articles.find((a) => a["@articleNumber"] === "SV-150")!.PurchasePrice).toBe("19.00");
  });

  it.each([
    [{ catalogResourceKey: "DLAG-DE", revision: "2" }, 400, /companyID is missing/],
    [{ companyID: "demo-company-lens", revision: "2" }, 400, /catalogResourceKey is missing/],
    [{ ...lens, revision: "two" }, 400, /whole number/],
    [{ ...lens, clientGroupID: "x" }, 400, /whole number/],
    [{ ...lens, ticket: "not-a-guid" }, 400, /GUID/],
    [{ ...lens, ticket: "00000000-0000-4000-8000-000000000000" }, 401, /not valid/],
    [{ ...lens, revision: "3" }, 403, /not released/],
    [{ ...lens, revision: "9" }, 404, /no revision 9/],
    [{ ...lens, companyID: "nobody" }, 404, /no supplier/],
    [{ ...lens, catalogResourceKey: "nothing" }, 404, /no catalog/],
  ])("answers %j with %i", async (params, status, text) => {
    await expectError(params as Record<string, string>, status, text);
  });

  it("answers 401 without a customer link", async () => {
    await expectError(
      { companyID: "demo-company-frames", catalogResourceKey: "FWG-DE", revision: "1", ticket },
      401,
      /no active registration/,
    );
  });

  it.each(["requested", "rejected", "withdrawn"])("answers 401 when the registration is %s", async (status) => {
    const db = service().database.db;
    await db.supplierRegistration.updateMany({ data: { status } });
    try {
      await expectError({ ...lens, ticket }, 401, /no active registration/);
    } finally {
      await db.supplierRegistration.updateMany({ data: { status: "active" } });
    }
  });

  it("streams every article of a large revision across page boundaries, ordered by article number and group", async () => {
    const db = service().database.db;
    const catalog = await db.catalog.findFirstOrThrow({ where: { resourceKey: "DLAG-DE" } });
    const revision = await db.catalogRevision.create({
      data: { catalogId: catalog.id, number: 50, publishedAt: new Date(), validFrom: new Date(), released: true },
    });
    // Every third number also in the optician's group 5, so that pages end between the groups of one number.
    const numbers = Array.from({ length: 2500 }, (_, index) => `A-${String(index).padStart(4, "0")}`);
    const rows = numbers.flatMap((number, index) =>
      (index % 3 === 0 ? [0, 5] : [0]).map((group) => ({ number, group, index })),
    );
    await db.catalogArticle.createMany({
      data: rows.map(({ number, group, index }) => ({
        id: crypto.randomUUID(),
        revisionId: revision.id,
        articleNumber: number,
        genericName: `Artikel ${index} <&>`,
        customerGroup: group,
        purchasePriceCents: index,
      })),
    });

    const anonymous = (await articles({ ...lens, revision: "50" })).articles;
    expect(anonymous.map((a) => a["@articleNumber"])).toEqual(numbers);
    expect(anonymous[7].Name).toBe("Artikel 7 <&>");

    const withTicket = (await articles({ ...lens, revision: "50", ticket })).articles;
    expect(withTicket.map((a) => `${a["@articleNumber"]}/${a["@customerGroup"]}`)).toEqual(
      rows.map(({ number, group }) => `${number}/${group}`),
    );
  });
});
