/**
 * Catalog files larger than the hosting platform lets an upload be, imported from a URL the supplier gives: through
 * the catalog page's form (the real route handler, CSRF and all) and `catalogs import --url`, from a real file
 * server on 127.0.0.1, which CATALOG_PULL_ALLOW lets OptiGate reach. The pulled file is imported exactly as an upload
 * is. The CLI names each reason a file cannot be had; the page, whose users are outside parties, says one thing for
 * every failure at an address that is not public, as this one is, and runs one pull per company at a time.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_ADDRESS_RANGES, parseAddressRanges } from "@/lib/config/address-ranges";
import type { ShownImportResult } from "@/lib/forms/catalog-submission";
import { IMPORT_RESULT_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { runAdmin } from "../../helpers/admin-cli";
import { answer, endless, file, FileServer, stall, trickle } from "../../helpers/file-server";
import { SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

// The route handlers read their configuration from the environment once: this file's service may reach the loopback.
process.env.CATALOG_PULL_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const EXAMPLE = readFileSync("docs/catalog-example.xml", "utf8");
const HEAD = EXAMPLE.slice(0, EXAMPLE.indexOf("<Article "));
const server = new FileServer({
  "/catalog.xml": file(EXAMPLE),
  "/moved.xml": answer(302, { location: "/catalog.xml" }),
  "/to-metadata.xml": answer(302, { location: "https://169.254.169.254/latest/catalog.xml" }),
  "/page.html": file("<!doctype html><html><body><p>Sign in to download</p></body></html>", {
    "content-type": "text/html",
  }),
  "/declared-huge.xml": answer(200, { "content-length": String(101 * 1024 * 1024) }, HEAD),
  // Endless CDATA after a catalog's start, with no Content-Length: only counting the bytes stops it past 100 MB.
  "/endless.xml": endless(HEAD, `<![CDATA[${"x".repeat(60_000)}]]>`),
  "/other-supplier.xml": file(EXAMPLE.replace('supplierID="DLAG"', 'supplierID="FWG"')),
  "/signed.xml?X-Amz-Signature=s3cr3t": trickle(HEAD, EXAMPLE.slice(HEAD.length), 200),
  "/other-supplier.xml?X-Amz-Signature=s3cr3t": file(EXAMPLE.replace('supplierID="DLAG"', 'supplierID="FWG"')),
});
/** A file server that starts the file and then waits, until it is closed: a pull that takes its time. */
const slow = new FileServer({ "/slow.xml": stall(HEAD) });

const pull = (agent: UserAgent, url: string, form: Record<string, string> = {}) =>
  agent.post("catalogs", "/interaction/catalogs", { action: "pull", url, ...form });
const result = (agent: UserAgent) =>
  unsealedCookieValue<ShownImportResult>(IMPORT_RESULT_COOKIE, agent.cookies.get(IMPORT_RESULT_COOKIE), SECRET_KEY);
const revisions = () => service().database.db.catalogRevision.count();

/** The articles of a revision of the demo catalog, as stored, without their ids. */
async function articlesOf(revision: number) {
  const rows = await service().database.db.catalogArticle.findMany({
    where: {
      revision: { number: revision, catalog: { catalogId: "catalog.xml", supplierCompanyId: "demo-company-lens" } },
    },
    orderBy: [{ articleNumber: "asc" }, { customerGroup: "asc" }],
  });
  return rows.map(({ id: _id, revisionId: _revisionId, ...article }) => article);
}

beforeAll(() => Promise.all([server.start(), slow.start()]));
afterAll(() => Promise.all([server.close(), slow.close()]));

describe(`catalog import from a URL on ${testProvider()}`, () => {
  it("imports the file at the URL as an upload of the same file is imported, after redirects too", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    await supplier.upload(
      "catalogs",
      "/interaction/catalogs",
      { action: "import" },
      {
        field: "catalog",
        name: "catalog.xml",
        content: EXAMPLE,
      },
    );
    expect(result(supplier)).toEqual({ ok: true, catalogId: "catalog.xml", revision: 4, articles: 3 });

    const response = await pull(supplier, server.url("/catalog.xml"));
    expect([response.status, response.headers.get("location")]).toEqual([303, "/portal/catalogs"]);
    expect(result(supplier)).toEqual({ ok: true, catalogId: "catalog.xml", revision: 5, articles: 3 });
    expect(await articlesOf(5)).toEqual(await articlesOf(4));
    const { db } = service().database;
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { type: "catalog.imported" },
      orderBy: { occurredAt: "desc" },
    });
    expect(audit.userId).toBe((await db.user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } })).id);

    await pull(supplier, server.url("/moved.xml"));
    expect(result(supplier)).toMatchObject({ ok: true, revision: 6 });
  });

  it.each([
    ["", "no_url"],
    ["catalog.xml", "pull_bad_url"],
    ["http://files.example/catalog.xml", "pull_not_https"],
    ["https://169.254.169.254/latest/catalog.xml", "pull_not_fetched"],
    ["https://10.1.2.3/catalog.xml", "pull_not_fetched"],
  ])("refuses %j before fetching anything: %s", async (url, error) => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    expect((await pull(supplier, url)).headers.get("location")).toBe(`/portal/catalogs?error=${error}`);
  });

  it("tells nothing of what an internal address answered: one message for every failure, and nothing written", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const before = await revisions();
    const closed = server.url("/catalog.xml").replace(/:\d+\//, ":1/");
    // No status, no reason, no line of a file that is no catalog (or another supplier's) from inside the network.
    const failing = ["/missing.xml", "/to-metadata.xml", "/declared-huge.xml", "/endless.xml", "/page.html"];
    for (const url of [...failing, "/other-supplier.xml"].map((path) => server.url(path)).concat(closed)) {
      const response = await pull(supplier, url);
      expect(response.headers.get("location"), url).toBe("/portal/catalogs?error=pull_not_fetched");
      expect(response.headers.get("set-cookie") ?? "", url).not.toContain(IMPORT_RESULT_COOKIE);
    }
    expect(await revisions()).toBe(before);
  }, 60_000);

  it("runs one pull per supplier company at a time: a second one waits for the first to end", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const colleague = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const first = pull(supplier, slow.url("/slow.xml"));
    await expect.poll(() => slow.requests.length).toBe(1);
    const second = await pull(colleague, server.url("/catalog.xml"));
    expect(second.headers.get("location")).toBe("/portal/catalogs?error=pull_company_busy");
    // Another company's pull goes ahead meanwhile.
    const frames = await signedInAgent("frames@demo.test", "Frames#2026");
    expect((await pull(frames, server.url("/missing.xml"))).headers.get("location")).toBe(
      "/portal/catalogs?error=pull_not_fetched",
    );
    // The slow server hangs up: the first pull ends, and the company may pull again.
    await slow.close();
    expect((await first).headers.get("location")).toBe("/portal/catalogs?error=pull_not_fetched");
    await pull(colleague, server.url("/catalog.xml"));
    expect(result(colleague)).toMatchObject({ ok: true, catalogId: "catalog.xml" });
  });

  it("is for signed-in users of supplier companies with a valid form only", async () => {
    const url = server.url("/catalog.xml");
    const fetched = server.requests.length;
    expect((await pull(new UserAgent(), url)).headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fcatalogs");
    expect((await pull(await signedInAgent("optician@demo.test", "Optician#2026"), url)).status).toBe(403);
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const forged = await pull(supplier, url, { csrf_token: "forged" });
    expect(forged.headers.get("location")).toBe("/portal/catalogs?error=form_expired");
    expect(server.requests.length).toBe(fetched);
  });
});

describe(`catalogs import --url on ${testProvider()}`, () => {
  const LOOPBACK = parseAddressRanges("127.0.0.0/8");
  const admin = (args: string[], catalogPullAllow = LOOPBACK, options: Parameters<typeof runAdmin>[2] = {}) =>
    runAdmin(service().database.db, ["catalogs", "import", ...args], { catalogPullAllow, ...options });

  it("imports the file at the URL as the file form does", async () => {
    const imported = await admin(["--url", server.url("/catalog.xml")]);
    expect([imported.code, imported.stdoutLines]).toEqual([
      0,
      [
        expect.stringMatching(
          /^Imported revision \d+ of catalog catalog\.xml \(DLAG-DE\) of supplier DLAG: 3 articles, not released yet\.$/,
        ),
        expect.stringMatching(/^Release it with: npm run admin -- catalogs release DLAG catalog\.xml \d+$/),
      ],
    ]);
    const url = server.url("/other-supplier.xml");
    const refused = await admin(["--url", url]);
    expect([refused.code, refused.stderrLines]).toEqual([
      1,
      [expect.stringMatching(new RegExp(`^${url}:2: .*FWG`)), `error: ${url} was not imported (nothing was written)`],
    ]);
  });

  it("refuses a file it cannot have with one line naming the URL and why, and exit code 1", async () => {
    const refusals: [string, typeof LOOPBACK, string][] = [
      [server.url("/catalog.xml"), NO_ADDRESS_RANGES, "it is not at a public address (127.0.0.1 is loopback)"],
      [server.url("/missing.xml"), LOOPBACK, "it answered HTTP 404 instead of the file"],
      [server.url("/declared-huge.xml"), LOOPBACK, "it is larger than 100 MB"],
      ["ftp://files.example/catalog.xml", LOOPBACK, "it is not an https URL of at most 2000 characters"],
    ];
    for (const [url, catalogPullAllow, reason] of refusals) {
      const { code, stderrLines } = await admin(["--url", url], catalogPullAllow);
      expect([code, stderrLines]).toEqual([1, [`error: ${url} was not imported: ${reason}`]]);
    }
  });

  it("does not reach the loopback by OUTBOUND_ALLOW: that list is for the operator's own connections", async () => {
    const url = server.url("/catalog.xml");
    const fetched = server.requests.length;
    const { code, stderrLines } = await admin(["--url", url], NO_ADDRESS_RANGES, { outboundAllow: LOOPBACK });
    expect([code, stderrLines]).toEqual([
      1,
      [`error: ${url} was not imported: it is not at a public address (127.0.0.1 is loopback)`],
    ]);
    expect(server.requests.length).toBe(fetched);
  });

  it("names the URL without its query or user info, where a pre-signed link keeps its signature", async () => {
    const shown = server.url("/signed.xml");
    const imported = await admin(["--url", `${shown}?X-Amz-Signature=s3cr3t`], LOOPBACK, { terminal: true });
    expect(imported.code).toBe(0);
    expect(imported.drawn.join("")).toContain(`catalogs import ${shown}: `);
    const other = server.url("/other-supplier.xml");
    const refused = await admin(["--url", `${other}?X-Amz-Signature=s3cr3t`], LOOPBACK, { terminal: true });
    expect(refused.stderrLines).toEqual([
      expect.stringMatching(new RegExp(`^${other}:2: .*FWG`)),
      `error: ${other} was not imported (nothing was written)`,
    ]);
    const missing = server.url("/missing.xml").replace("http://", "http://user:s3cr3t@");
    expect((await admin(["--url", `${missing}?sig=s3cr3t#part`])).stderrLines).toEqual([
      `error: ${server.url("/missing.xml")} was not imported: it answered HTTP 404 instead of the file`,
    ]);
    for (const output of [imported, refused])
      expect([...output.drawn, output.stdout, output.stderr].join("\n")).not.toContain("s3cr3t");
  });

  it("asks for the URL after --url", async () => {
    const { code, stderr } = await admin(["--url"]);
    expect([code, stderr]).toEqual([
      2,
      "error: catalogs import --url needs <https-url> (usage: npm run admin -- catalogs import --url <https-url>)",
    ]);
  });
});
