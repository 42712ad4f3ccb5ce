/**
 * Catalog downloads as optician software fetches them: content codings by Accept-Encoding, validators
 * and 304 without reading an article, byte ranges of the plain body, and a caller that goes away mid-stream.
 */
import { randomUUID } from "node:crypto";
import { prismaStores } from "@/lib/store/stores";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { issueTicket } from "@/lib/catalog/tickets";
import { metrics } from "@/lib/observability/metrics";
import { insertArticles } from "@/lib/db/statements/catalog-articles";
import { getAndLeave, rawGet, useFrontServer } from "../../helpers/front-server";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { validateAgainst } from "../../helpers/xml-schema";

const service = useOAuthService();
const db = () => service().database.db;
const LARGE_REVISION = 60;
const EMPTY_REVISION = 61;
/** Fifty pages of 2,000 articles, about 18 MB: far more than the sockets' buffers take in before a leaving client is noticed. */
const ABORT_REVISION = 62;
const ABORT_PAGES = 50;
const ARTICLES = 9000;
let ticket: string;

const lens = (revision: number, extra: Record<string, string> = {}) =>
  `?${new URLSearchParams({ companyID: "demo-company-lens", catalogResourceKey: "DLAG-DE", revision: String(revision), ...extra })}`;

const front = useFrontServer();

/** Through the Node server's front, as optician software meets it (Next.js alone sends every download plain). */
const download = (query: string, headers: Record<string, string> = {}) =>
  rawGet(`${front()}/getSubCatalog.ashx${query}`, headers);

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

function decoded(response: Response, body: Buffer): Buffer {
  const coding = response.headers.get("content-encoding");
  if (coding === "gzip") return gunzipSync(body);
  if (coding === "br") return brotliDecompressSync(body);
  expect(coding).toBeNull();
  return body;
}

/** Article pages read so far in this process (one statement each). */
const pagesRead = async () => (await metrics.catalogArticlePages.get()).values[0]?.value ?? 0;

/** The count once no earlier test's reads are still under way (it stayed the same for 200 ms). */
async function settledPagesRead(): Promise<number> {
  for (let count = await pagesRead(); ;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await pagesRead();
    if (now === count) return now;
    count = now;
  }
}

async function storeRevision(number: number, articles: number, everyNthInGroup5 = 4): Promise<void> {
  const catalog = await db().catalog.findFirstOrThrow({ where: { resourceKey: "DLAG-DE" } });
  const revision = await db().catalogRevision.create({
    data: {
      catalogId: catalog.id,
      number,
      publishedAt: new Date("2026-11-20T10:00:00.000Z"),
      validFrom: new Date(),
      released: true,
    },
  });
  await insertArticles(
    db(),
    Array.from({ length: articles }, (_, index) => ({
      id: randomUUID(),
      revisionId: revision.id,
      articleNumber: `D-${String(index).padStart(5, "0")}`,
      genericName: `Einstärkenglas ${index} – 1.6 <super> & "clean"`,
      customerGroup: everyNthInGroup5 > 0 && index % everyNthInGroup5 === 0 ? 5 : 0,
      purchasePriceCents: 1000 + index,
      retailPriceCents: index % 7 === 0 ? null : 2500 + index,
      startDate: index % 3 === 0 ? new Date("2026-01-01T00:00:00.000Z") : null,
      endDate: null,
      whiteLabel: index === 4,
    })),
  );
}

beforeAll(async () => {
  const user = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  ticket = (await issueTicket(prismaStores(db()).tickets, user.id)).ticket;
  await storeRevision(LARGE_REVISION, ARTICLES);
  await storeRevision(EMPTY_REVISION, 0);
  await storeRevision(ABORT_REVISION, ABORT_PAGES * 2000, 0);
});

describe(`catalog downloads on ${testProvider()}`, () => {
  it("sends br or gzip as the client ranks them, each decompressing to the plain body byte for byte", async () => {
    const plainResponse = await download(lens(LARGE_REVISION, { ticket }));
    expect(plainResponse.headers.get("content-encoding")).toBeNull();
    expect(plainResponse.headers.get("vary")).toBe("Accept-Encoding");
    expect(plainResponse.headers.get("accept-ranges")).toBe("bytes");
    expect(plainResponse.headers.get("cache-control")).toBe("private, no-cache, no-transform");
    const plain = await bytesOf(plainResponse);
    validateAgainst("docs/subcatalog.xsd", plain.toString("utf8"));
    expect(plain.toString("utf8").match(/<\/Article>/g)).toHaveLength(ARTICLES);

    const tags = new Set([plainResponse.headers.get("etag")]);
    for (const [acceptEncoding, coding] of [
      ["gzip, deflate, br", "br"],
      ["gzip;q=1.0, br;q=0.5", "gzip"],
      ["br;q=0.1, *;q=0.2", "gzip"],
      ["GZIP", "gzip"],
      ["identity, gzip;q=0.5", null],
      ["zstd;q=1, gzip;q=0.9", "gzip"],
    ] as const) {
      const response = await download(lens(LARGE_REVISION, { ticket }), { "accept-encoding": acceptEncoding });
      expect([acceptEncoding, response.status, response.headers.get("content-encoding")]).toEqual([
        acceptEncoding,
        200,
        coding,
      ]);
      const body = await bytesOf(response);
      if (coding) expect(body.length).toBeLessThan(plain.length / 4);
      expect(decoded(response, body).equals(plain)).toBe(true);
      tags.add(response.headers.get("etag"));
    }
    // One strong tag per coding of the same content.
    const etag = plainResponse.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect([...tags].sort()).toEqual([etag, `${etag.slice(0, -1)}-br"`, `${etag.slice(0, -1)}-gzip"`].sort());
  });

  it("goes out plain through Next.js alone, which would drop Content-Encoding, with the same validators", async () => {
    const { GET } = await import("@/app/getSubCatalog.ashx/route");
    const viaNext = (headers: Record<string, string>) =>
      GET(new Request(`${ISSUER}/getSubCatalog.ashx${lens(LARGE_REVISION)}`, { headers }));
    const plain = await viaNext({ "accept-encoding": "br, gzip" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const body = Buffer.from(await plain.arrayBuffer());
    expect(body.equals(await bytesOf(await download(lens(LARGE_REVISION))))).toBe(true);
    expect(plain.headers.get("etag")).not.toMatch(/-(gzip|br)"$/);
    expect((await viaNext({ "if-none-match": plain.headers.get("etag")! })).status).toBe(304);
    expect((await viaNext({ "accept-encoding": "gzip, identity;q=0" })).status).toBe(406);
  });

  it("refuses only when nothing is acceptable, ignores garbage, and never compresses a body under 1 KB", async () => {
    for (const acceptEncoding of ["identity;q=0", "*;q=0", "br;q=0, gzip;q=0, identity;q=0"]) {
      const refused = await download(lens(LARGE_REVISION), { "accept-encoding": acceptEncoding });
      expect([acceptEncoding, refused.status]).toEqual([acceptEncoding, 406]);
      expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await refused.text()).toMatch(/Accept-Encoding refuses/);
    }
    for (const [acceptEncoding, coding] of [
      ["identity;q=0, gzip", "gzip"],
      ["gzip;q=2, br;q=-1", null],
      ["gzip;q=abc", null],
      ["@@@, ;;;, =, gzip;q=", null],
      ["*", "br"],
      ["", null],
      [`${"x".repeat(5000)}, gzip`, "gzip"],
    ] as const) {
      const response = await download(lens(LARGE_REVISION), { "accept-encoding": acceptEncoding });
      expect([acceptEncoding.slice(0, 20), response.status, response.headers.get("content-encoding")]).toEqual([
        acceptEncoding.slice(0, 20),
        200,
        coding,
      ]);
      await response.arrayBuffer();
    }
    const small = await download(lens(EMPTY_REVISION), { "accept-encoding": "gzip, br" });
    expect(small.headers.get("content-encoding")).toBeNull();
    const body = await small.text();
    expect(body.length).toBeLessThan(1024);
    expect(small.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    expect(small.headers.get("etag")).not.toMatch(/-(gzip|br)"$/);
    validateAgainst("docs/subcatalog.xsd", body);
  });

  it("answers If-None-Match and If-Modified-Since with 304 without reading an article", async () => {
    const full = await download(lens(LARGE_REVISION), { "accept-encoding": "gzip" });
    await full.arrayBuffer();
    const etag = full.headers.get("etag")!;
    const lastModified = full.headers.get("last-modified")!;
    expect(full.headers.get("cache-control")).toBe("public, max-age=3600, no-transform");
    expect(new Date(lastModified).getTime()).toBeGreaterThanOrEqual(Date.parse("2026-11-20T10:00:00Z"));

    const before = await pagesRead();
    for (const conditional of <Record<string, string>[]>[
      { "if-none-match": etag },
      { "if-none-match": `"other", W/${etag}` },
      { "if-none-match": "*" },
      { "if-modified-since": lastModified },
    ]) {
      const response = await download(lens(LARGE_REVISION), { "accept-encoding": "gzip", ...conditional });
      expect([conditional, response.status]).toEqual([conditional, 304]);
      expect(await response.text()).toBe("");
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600, no-transform");
      expect(response.headers.get("content-length")).toBeNull();
    }
    // A tag of another coding of the same content revalidates it too.
    const plainTag = etag.replace(/-gzip"$/, '"');
    const byPlainTag = await download(lens(LARGE_REVISION), { "accept-encoding": "br", "if-none-match": plainTag });
    // The 304 names the tag that matched, by which the client's cache finds what it stored.
    expect([byPlainTag.status, byPlainTag.headers.get("etag")]).toEqual([304, plainTag]);
    expect(await pagesRead()).toBe(before);

    for (const conditional of <Record<string, string>[]>[
      { "if-none-match": '"stale"' },
      // If-None-Match decides: a current date beside a stale tag is not enough.
      { "if-none-match": '"stale"', "if-modified-since": lastModified },
      { "if-modified-since": new Date(Date.parse(lastModified) - 1000).toUTCString() },
      { "if-modified-since": "yesterday-ish" },
      // Not an HTTP date, though Date.parse would read them; and a date in the future.
      { "if-modified-since": "2030" },
      { "if-modified-since": "99999" },
      { "if-modified-since": new Date(Date.now() + 86_400_000).toUTCString() },
    ]) {
      const response = await download(lens(LARGE_REVISION), conditional);
      expect([conditional, response.status]).toEqual([conditional, 200]);
      await response.arrayBuffer();
    }
    expect(await pagesRead()).toBeGreaterThan(before);
  });

  it("changes tag and date when the customer's groups or white-label names change", async () => {
    const first = await download(lens(LARGE_REVISION, { ticket }));
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    const registration = await db().supplierRegistration.findFirstOrThrow({
      where: { supplierCompanyId: "demo-company-lens", status: "active" },
    });
    const later = new Date(Date.parse(first.headers.get("last-modified")!) + 5000);
    try {
      await db().supplierRegistration.update({
        where: { id: registration.id },
        data: { customerGroups: JSON.stringify([5, 9]), updatedAt: later },
      });
      const regrouped = await download(lens(LARGE_REVISION, { ticket }), { "if-none-match": etag });
      expect(regrouped.status).toBe(200);
      await regrouped.arrayBuffer();
      expect(regrouped.headers.get("etag")).not.toBe(etag);
      expect(Date.parse(regrouped.headers.get("last-modified")!)).toBe(later.getTime());
      const sinceFirst = await download(lens(LARGE_REVISION, { ticket }), {
        "if-modified-since": first.headers.get("last-modified")!,
      });
      expect(sinceFirst.status).toBe(200);
      await sinceFirst.arrayBuffer();

      const regroupedTag = regrouped.headers.get("etag")!;
      await db().whiteLabelName.upsert({
        where: { registrationId_articleNumber: { registrationId: registration.id, articleNumber: "D-00004" } },
        create: { registrationId: registration.id, articleNumber: "D-00004", name: "Hausmarke 1.6" },
        update: { name: "Hausmarke 1.6" },
      });
      const renamed = await download(lens(LARGE_REVISION, { ticket }), { "if-none-match": regroupedTag });
      expect(renamed.status).toBe(200);
      expect(renamed.headers.get("etag")).not.toBe(regroupedTag);
      expect(await renamed.text()).toContain("<Name>Hausmarke 1.6</Name>");
    } finally {
      await db().whiteLabelName.deleteMany({ where: { registrationId: registration.id, articleNumber: "D-00004" } });
      await db().supplierRegistration.update({
        where: { id: registration.id },
        data: { customerGroups: registration.customerGroups, updatedAt: registration.updatedAt },
      });
    }
    const restored = await download(lens(LARGE_REVISION, { ticket }), { "if-none-match": etag });
    expect(restored.status).toBe(304);
  });
});

describe(`remembered catalog revisions on ${testProvider()}`, () => {
  it("moves Last-Modified when a catalog change rewrites the header of an old revision", async () => {
    const { raiseCatalogListVersion } = await import("@/lib/store/catalog-store");
    const first = await download(lens(LARGE_REVISION));
    await first.arrayBuffer();
    const catalog = await db().catalog.findFirstOrThrow({ where: { resourceKey: "DLAG-DE" } });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await db().catalog.update({ where: { id: catalog.id }, data: { language: "en" } });
    await raiseCatalogListVersion(db());
    try {
      const changed = await download(lens(LARGE_REVISION), {
        "if-modified-since": first.headers.get("last-modified")!,
      });
      expect(changed.status).toBe(200);
      expect(await changed.text()).toContain('language="en"');
      expect(changed.headers.get("etag")).not.toBe(first.headers.get("etag"));
      expect(Date.parse(changed.headers.get("last-modified")!)).toBeGreaterThan(
        Date.parse(first.headers.get("last-modified")!),
      );
    } finally {
      await db().catalog.update({ where: { id: catalog.id }, data: { language: catalog.language } });
      await raiseCatalogListVersion(db());
    }
  });

  it("forgets them when the supplier is deactivated: its downloads end at once", async () => {
    const { activateCompany, deactivateCompany } = await import("@/lib/store/company-store");
    const first = await download(lens(LARGE_REVISION));
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    expect((await download(lens(LARGE_REVISION), { "if-none-match": etag })).status).toBe(304);
    await deactivateCompany(db(), "demo-company-lens");
    try {
      const gone = await download(lens(LARGE_REVISION), { "if-none-match": etag });
      expect([gone.status, await gone.text()]).toEqual([404, expect.stringMatching(/no supplier/)]);
    } finally {
      await activateCompany(db(), "demo-company-lens");
    }
    expect((await download(lens(LARGE_REVISION), { "if-none-match": etag })).status).toBe(304);
  });
});

describe(`resumed catalog downloads on ${testProvider()}`, () => {
  it("resumes a cut download with If-Range, joined byte for byte, also before any full download", async () => {
    // Nobody has downloaded the supplier's own view yet: its length is counted first.
    const supplier = await db().user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } });
    const own = lens(LARGE_REVISION, { ticket: (await issueTicket(prismaStores(db()).tickets, supplier.id)).ticket });
    const head = await download(own, { range: "bytes=0-99999" });
    expect(head.status).toBe(206);
    const first = await bytesOf(head);
    expect(first.length).toBe(100_000);
    const length = Number(head.headers.get("content-range")!.split("/")[1]);
    expect(head.headers.get("content-range")).toBe(`bytes 0-99999/${length}`);
    expect(head.headers.get("content-length")).toBe("100000");
    const etag = head.headers.get("etag")!;

    const rest = await download(own, { range: "bytes=100000-", "if-range": etag, "accept-encoding": "gzip, br" });
    expect(rest.status).toBe(206);
    expect(rest.headers.get("content-encoding")).toBeNull();
    expect(rest.headers.get("content-range")).toBe(`bytes 100000-${length - 1}/${length}`);
    const joined = Buffer.concat([first, await bytesOf(rest)]);
    const whole = await bytesOf(await download(own));
    expect(joined.length).toBe(length);
    expect(joined.equals(whole)).toBe(true);
    validateAgainst("docs/subcatalog.xsd", joined.toString("utf8"));

    // The layout is known now: a range is generated from the page it starts in, not from the beginning.
    const before = await pagesRead();
    expect((await bytesOf(await download(own, { range: "bytes=-50" }))).equals(whole.subarray(-50))).toBe(true);
    expect((await pagesRead()) - before).toBe(1);
    const half = Math.floor(length / 2);
    const middle = await download(own, { range: `bytes=${half - 7000}-${half + 500_000}` });
    expect((await bytesOf(middle)).equals(whole.subarray(half - 7000, half + 500_001))).toBe(true);
    // A date in If-Range is not honoured (whole seconds cannot tell versions apart): the whole body.
    const byDate = await download(own, { range: "bytes=-50", "if-range": rest.headers.get("last-modified")! });
    expect([byDate.status, (await bytesOf(byDate)).equals(whole)]).toEqual([200, true]);
  });

  it("sends the whole body for stale If-Range, malformed or multiple ranges, and 416 past the end", async () => {
    const whole = await bytesOf(await download(lens(LARGE_REVISION)));
    const plain = await download(lens(LARGE_REVISION), { range: "bytes=0-0" });
    const etag = plain.headers.get("etag")!;
    expect([plain.status, (await bytesOf(plain)).toString()]).toEqual([206, "<"]);

    for (const headers of <Record<string, string>[]>[
      { range: "bytes=10-20", "if-range": '"stale"' },
      { range: "bytes=10-20", "if-range": `W/${etag}` },
      { range: "bytes=10-20", "if-range": `${etag.slice(0, -1)}-gzip"` },
      { range: "bytes=10-20", "if-range": "Mon, 01 Jan 2024 00:00:00 GMT" },
      { range: "bytes=0-1, 5-6" },
      { range: "bytes=abc" },
      { range: "items=0-5" },
      { range: "bytes=20-10" },
      { range: "bytes=-" },
      { range: `bytes=${"9".repeat(40)}-` },
    ]) {
      const response = await download(lens(LARGE_REVISION), headers);
      expect([headers, response.status]).toEqual([headers, 200]);
      expect((await bytesOf(response)).equals(whole)).toBe(true);
    }
    for (const range of [`bytes=${whole.length}-`, `bytes=${whole.length + 5}-${whole.length + 10}`, "bytes=-0"]) {
      const response = await download(lens(LARGE_REVISION), { range });
      expect([range, response.status]).toEqual([range, 416]);
      expect(response.headers.get("content-range")).toBe(`bytes */${whole.length}`);
      expect(await response.text()).toMatch(/past the end/);
    }
    const tail = await download(lens(LARGE_REVISION), { range: `bytes=${whole.length - 10}-${whole.length + 99}` });
    expect([tail.status, tail.headers.get("content-range")]).toEqual([
      206,
      `bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`,
    ]);
    expect((await bytesOf(tail)).equals(whole.subarray(-10))).toBe(true);
    // A conditional GET is decided before the range.
    expect((await download(lens(LARGE_REVISION), { range: "bytes=0-9", "if-none-match": etag })).status).toBe(304);
  });

  it("stops learning a document's length for a range when its caller goes away before the answer", async () => {
    const before = await settledPagesRead();
    await getAndLeave(
      `${front()}/getSubCatalog.ashx${lens(ABORT_REVISION, { ticket })}`,
      { range: "bytes=100-199" },
      // Soon after the request: learning the length reads every page, and a busy machine reads half of them in 150 ms.
      75,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const read = (await pagesRead()) - before;
    expect(read).toBeLessThan(ABORT_PAGES * 0.5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await pagesRead()) - before).toBe(read);
  });

  it.each([null, "gzip", "br"])("stops reading pages as soon as the caller goes away (coding %s)", async (coding) => {
    const headers: Record<string, string> = coding ? { "accept-encoding": coding } : {};
    const before = await settledPagesRead();
    await getAndLeave(`${front()}/getSubCatalog.ashx${lens(ABORT_REVISION)}`, headers);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const read = (await pagesRead()) - before;
    // What the sockets took in before the server noticed, and a page in flight; nothing after.
    expect(read).toBeLessThan(ABORT_PAGES * 0.3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await pagesRead()) - before).toBe(read);
  });
});
