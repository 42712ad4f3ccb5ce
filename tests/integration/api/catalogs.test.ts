/** GET /v2/catalogs and its detail and article routes: the getCatalogInfos list and the getSubCatalog rules as JSON. */
import { prismaStores } from "@/lib/store/stores";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { metrics } from "@/lib/observability/metrics";
import { insertArticles } from "@/lib/db/statements/catalog-articles";
import { ISSUER, formRequest, useOAuthService } from "../../helpers/oauth-service";
import { rawGet, useFrontServer } from "../../helpers/front-server";
import { api, checkAgainstDocument, clientToken, userToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const front = useFrontServer();
const READ = "platform.catalogs.read";
const backend = () => clientToken("demo-backend", "demo-backend-secret", READ);
const optician = () => userToken("optician@demo.test", "Optician#2026", READ);
const supplier = () => userToken("supplier@demo.test", "Supplier#2026", READ);

async function subCatalogXml(query: string): Promise<string> {
  const { GET } = await import("@/app/getSubCatalog.ashx/route");
  const response = await GET(new Request(`${ISSUER}/getSubCatalog.ashx?${query}`));
  expect(response.status).toBe(200);
  return response.text();
}

async function ticket(): Promise<string> {
  const { POST } = await import("@/app/services/login/SilentLogin/route");
  return (
    await (
      await POST(
        formRequest("/services/login/SilentLogin", { username: "optician@demo.test", password: "Optician#2026" }),
      )
    ).json()
  ).ticket;
}

describe(`the platform API's catalogs on ${testProvider()}`, () => {
  it("lists the published catalogs with their latest released revision and the caller's registration", async () => {
    const { response, body } = await api("GET", "/v2/catalogs", { token: await optician() });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body.next).toBeNull();
    expect(body.items.map((c: any) => `${c.supplierId}/${c.catalogId}`)).toEqual([
      "DLAG/catalog.xml",
      "DLAG/catalog_AT.xml",
      "FWG/catalog.xml",
    ]);
    expect(body.items[0]).toEqual({
      supplierId: "DLAG",
      companyId: "demo-company-lens",
      supplierName: "Demo Lens AG",
      catalogId: "catalog.xml",
      resourceKey: "DLAG-DE",
      name: expect.any(String),
      language: "de",
      validCountries: ["DE"],
      productGroups: ["Brillengläser", "Kontaktlinsen"],
      latestRevision: { number: 2, releasedAt: expect.stringMatching(/Z$/) },
      registration: { clientId: "100234", subscriptionStatus: "Subscribed" },
    });
    expect(body.items[1].registration).toEqual({ clientId: "100234", subscriptionStatus: "Unsubscribed" });
    expect(body.items[2].registration).toBeNull();
  });

  it("filters like getCatalogInfos (country, product group, supplier)", async () => {
    const token = await backend();
    const ids = async (query: string) =>
      (await api("GET", `/v2/catalogs${query}`, { token })).body.items.map((c: any) => c.resourceKey);
    expect(await ids("?validCountry=at")).toEqual(["DLAG-AT", "FWG-DE"]);
    expect(await ids(`?productGroup=${encodeURIComponent("Kontaktlinsen")}`)).toEqual(["DLAG-DE"]);
    expect(await ids("?supplierId=FWG")).toEqual(["FWG-DE"]);
    expect(await ids("?validCountry=FR")).toEqual([]);
  });

  it("pages with an opaque cursor without duplicates or gaps when catalogs are published between pages", async () => {
    const token = await backend();
    const first = await api("GET", "/v2/catalogs?limit=2", { token });
    expect(first.body.items.map((c: any) => c.resourceKey)).toEqual(["DLAG-DE", "DLAG-AT"]);
    expect(first.body.next).toEqual(expect.any(String));
    // A catalog published before the cursor's position, and one after it.
    const db = service().database.db;
    const { releaseRevision } = await import("@/lib/catalog/publishing/catalog-publishing");
    for (const [company, catalogId, key] of [
      ["demo-company-lens", "catalog_AA.xml", "DLAG-AA"],
      ["demo-company-frames", "catalog_ZZ.xml", "FWG-ZZ"],
    ]) {
      const catalog = await db.catalog.create({
        data: {
          supplierCompanyId: company,
          catalogId,
          resourceKey: key,
          name: key,
          language: "de",
          formatVersion: "1",
        },
      });
      await db.catalogRevision.create({
        data: { catalogId: catalog.id, number: 1, publishedAt: new Date(), validFrom: new Date() },
      });
      await releaseRevision(prismaStores(db), { supplierCompanyId: company, catalogId, revision: 1 });
    }
    const second = await api("GET", `/v2/catalogs?limit=2&cursor=${encodeURIComponent(first.body.next)}`, { token });
    expect(second.body.items.map((c: any) => c.resourceKey)).toEqual(["FWG-DE", "FWG-ZZ"]);
    expect(second.body.next).toBeNull();
  });

  it("refuses a tampered cursor, another list's cursor, bad limits and unknown parameters with 400 problems", async () => {
    const token = await backend();
    const { body } = await api("GET", "/v2/catalogs?limit=1", { token });
    const [text, mac] = body.next.split(".");
    const tampered = `${Buffer.from(Buffer.from(text, "base64url").toString().replace("DLAG", "FWG")).toString("base64url")}.${mac}`;
    for (const query of [
      `cursor=${tampered}`,
      `cursor=${body.next}&validCountry=DE`,
      "cursor=abc",
      `cursor=${"a".repeat(2000)}`,
      "limit=0",
      "limit=501",
      "limit=ten",
      "validCountry=Germany",
      "sort=name",
      "limit=1&limit=2",
    ]) {
      const { response, body: problem } = await api("GET", `/v2/catalogs?${query}`, { token });
      expect(response.status, query).toBe(400);
      expect(problem.detail, query).toMatch(/cursor|limit|validCountry|sort|repeated/);
    }
  });

  it("shows one catalog with its released revisions; the supplier's own users also see unreleased ones, marked", async () => {
    const path = "/v2/catalogs/DLAG/catalog.xml";
    const forCustomer = await api("GET", path, { token: await optician() });
    expect(forCustomer.body.revisions.map((r: any) => [r.number, r.released])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(forCustomer.body.revisions[0]).toEqual({
      number: 1,
      releasedAt: expect.stringMatching(/Z$/),
      comment: expect.any(String),
      released: true,
    });
    const forOwner = await api("GET", path, { token: await supplier() });
    expect(forOwner.body.revisions.map((r: any) => [r.number, r.released, r.releasedAt])).toEqual([
      [1, true, expect.any(String)],
      [2, true, expect.any(String)],
      [3, false, null],
    ]);
    expect((await api("GET", "/v2/catalogs/DLAG/nothing.xml", { token: await optician() })).response.status).toBe(404);
    expect((await api("GET", "/v2/catalogs/NOBODY/catalog.xml", { token: await optician() })).response.status).toBe(
      404,
    );
  });

  it("gives a revision's articles by the getSubCatalog rules, as JSON pages and as the same XML", async () => {
    const token = await optician();
    const all: any[] = [];
    let next: string | null = null;
    do {
      const query: string = next ? `?limit=2&cursor=${encodeURIComponent(next)}` : "?limit=2";
      const { response, body } = await api("GET", `/v2/catalogs/DLAG/catalog.xml/revisions/2/articles${query}`, {
        token,
      });
      expect(response.status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(2);
      all.push(...body.items);
      next = body.next;
    } while (next);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (name) => name === "Article",
      parseTagValue: false,
    });
    const viaTicket = parser.parse(
      await subCatalogXml(`companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2&ticket=${await ticket()}`),
    ).SubCatalog.Article;
    expect(all.map((a) => [a.articleNumber, a.customerGroup, a.name, a.purchasePrice.toFixed(2)])).toEqual(
      viaTicket.map((a: any) => [a.articleNumber, Number(a.customerGroup), a.Name, a.PurchasePrice]),
    );
    expect(all.find((a) => a.whiteLabel)).toMatchObject({
      articleNumber: "WL-100",
      name: "Augenoptik Demo Premium 1.6",
    });
    expect(all.some((a) => a.customerGroup === 5)).toBe(true);
    expect(all.every((a) => a.startDate === null || /^\d{4}-\d{2}-\d{2}$/.test(a.startDate))).toBe(true);

    const xml = await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/2/articles", {
      token,
      headers: { accept: "application/xml" },
    });
    expect(xml.response.status).toBe(200);
    expect(xml.response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const document = await xml.response.text();
    expect(parser.parse(document).SubCatalog.Article).toEqual(viaTicket);
    expect(
      (
        await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/2/articles", {
          token,
          headers: { accept: "application/xml;q=0.5, application/json" },
        })
      ).response.headers.get("content-type"),
    ).toBe("application/json");
  });

  it("keeps the rules: unreleased revisions only for the supplier, other catalogs only with an active registration", async () => {
    const unreleased = await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/3/articles", {
      token: await optician(),
    });
    // As if it did not exist: the same answer as for a revision that does not.
    expect([unreleased.response.status, unreleased.body.detail]).toEqual([
      404,
      "The catalog has no released revision 3.",
    ]);
    expect(
      (await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/4/articles", { token: await optician() })).body.detail,
    ).toBe("The catalog has no released revision 4.");
    const own = await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/3/articles", { token: await supplier() });
    expect(own.response.status).toBe(200);
    expect(own.body.items.length).toBeGreaterThan(0);
    const foreign = await api("GET", "/v2/catalogs/FWG/catalog.xml/revisions/1/articles", { token: await optician() });
    expect(foreign.response.status).toBe(403);
    expect(foreign.body.detail).toMatch(/no active registration/);
    // A client acting for no company reads as anyone: German catalogs, group 0, no purchase prices.
    const anyone = await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/2/articles", { token: await backend() });
    expect(anyone.body.items.every((a: any) => a.customerGroup === 0 && a.purchasePrice === 0)).toBe(true);
    expect(
      (await api("GET", "/v2/catalogs/DLAG/catalog_AT.xml/revisions/1/articles", { token: await backend() })).response
        .status,
    ).toBe(403);
    expect(
      (await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/99/articles", { token: await backend() })).response
        .status,
    ).toBe(404);
    expect(
      (await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/x1/articles", { token: await backend() })).response
        .status,
    ).toBe(400);
    expect(
      (await api("GET", "/v2/catalogs/DLAG/catalog.xml/revisions/2/articles?limit=5001", { token: await backend() }))
        .response.status,
    ).toBe(400);
  });

  it("answers for an unpublished catalog as for one that does not exist, to everyone but its supplier", async () => {
    const db = service().database.db;
    const lens = await db.company.findFirstOrThrow({ where: { supplierId: "DLAG" } });
    const hidden = await db.catalog.create({
      data: {
        supplierCompanyId: lens.id,
        catalogId: "catalog_CH.xml",
        resourceKey: "DLAG-CH",
        name: "Hidden",
        language: "de",
        formatVersion: "1.0",
      },
    });
    await db.catalogRevision.create({
      data: { catalogId: hidden.id, number: 1, publishedAt: new Date(), validFrom: new Date() },
    });
    for (const token of [await optician(), await backend()]) {
      for (const path of ["catalog_CH.xml", "DLAG-CH", "nope.xml"].map(
        (key) => `/v2/catalogs/DLAG/${key}/revisions/1/articles`,
      )) {
        const { response, body } = await api("GET", path, { token });
        expect([response.status, body.detail], path).toEqual([
          404,
          `The supplier "DLAG" has no published catalog "${path.split("/")[4]}".`,
        ]);
      }
    }
    expect(
      (await api("GET", "/v2/catalogs/DLAG/catalog_CH.xml/revisions/1/articles", { token: await supplier() })).response
        .status,
    ).toBe(200);
  });

  it("compresses, revalidates and resumes article pages and documents; a 304 reads no article", async () => {
    const db = service().database.db;
    const catalog = await db.catalog.findFirstOrThrow({ where: { resourceKey: "DLAG-DE" } });
    const revision = await db.catalogRevision.create({
      data: { catalogId: catalog.id, number: 70, publishedAt: new Date(), validFrom: new Date(), released: true },
    });
    await insertArticles(
      db,
      Array.from({ length: 3000 }, (_, index) => ({
        id: crypto.randomUUID(),
        revisionId: revision.id,
        articleNumber: `P-${String(index).padStart(5, "0")}`,
        genericName: `Gleitsichtglas ${index}`,
        customerGroup: 0,
        purchasePriceCents: index,
        retailPriceCents: null,
        startDate: null,
        endDate: null,
        whiteLabel: false,
      })),
    );
    const token = await optician();
    const path = "/v2/catalogs/DLAG/catalog.xml/revisions/70/articles";
    const pagesRead = async () => (await metrics.catalogArticlePages.get()).values[0]?.value ?? 0;

    const plain = await api("GET", `${path}?limit=500`, { token });
    // Compressed only through the Node server's front (Next.js alone drops Content-Encoding).
    const viaFront = await rawGet(`${front()}${path}?limit=500`, {
      authorization: `Bearer ${token}`,
      "accept-encoding": "gzip",
    });
    expect(viaFront.headers.get("content-encoding")).toBe("gzip");
    const gzip = { response: viaFront, body: await checkAgainstDocument("GET", `${path}?limit=500`, viaFront) };
    expect(gzip.body).toEqual(plain.body);
    expect(plain.response.headers.get("cache-control")).toBe("private, no-cache, no-transform");
    const etag = plain.response.headers.get("etag")!;
    expect(gzip.response.headers.get("etag")).toBe(`${etag.slice(0, -1)}-gzip"`);

    const before = await pagesRead();
    const revalidated = await api("GET", `${path}?limit=500`, { token, headers: { "if-none-match": etag } });
    expect(revalidated.response.status).toBe(304);
    const since = plain.response.headers.get("last-modified")!;
    expect(
      (await api("GET", `${path}?limit=500`, { token, headers: { "if-modified-since": since } })).response.status,
    ).toBe(304);
    expect(await pagesRead()).toBe(before);
    // Another page size or start is another resource state: its own tag.
    const other = await api("GET", `${path}?limit=499`, { token, headers: { "if-none-match": etag } });
    expect(other.response.status).toBe(200);
    expect(other.response.headers.get("etag")).not.toBe(etag);
    const second = await api("GET", `${path}?limit=500&cursor=${encodeURIComponent(plain.body.next)}`, { token });
    expect(second.response.headers.get("etag")).not.toBe(etag);

    const xmlHeaders = { accept: "application/xml" };
    const whole = await api("GET", path, { token, headers: xmlHeaders });
    const document = await whole.response.text();
    const cut = 20_000;
    const rest = await api("GET", path, {
      token,
      headers: { ...xmlHeaders, range: `bytes=${cut}-`, "if-range": whole.response.headers.get("etag")! },
    });
    expect(rest.response.status).toBe(206);
    expect(document.slice(0, cut) + (await rest.response.text())).toBe(document);
    const past = await api("GET", path, { token, headers: { ...xmlHeaders, range: `bytes=${document.length}-` } });
    expect([past.response.status, past.body.type]).toEqual([416, "urn:optigate:problem:range-not-satisfiable"]);
    expect(past.response.headers.get("content-range")).toBe(`bytes */${document.length}`);
    const refused = await api("GET", path, { token, headers: { "accept-encoding": "identity;q=0" } });
    expect([refused.response.status, refused.body.type]).toEqual([406, "urn:optigate:problem:not-acceptable"]);
  });
});
