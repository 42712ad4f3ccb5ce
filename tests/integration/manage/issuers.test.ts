/**
 * /manage/v1/issuers through the real route handler and database: trusting an issuer with the JSON of
 * `federation add`, reading it by its percent-encoded URL with an ETag, replacing (PUT) and merging (PATCH) with
 * If-Match, removing it; the federation registry's rules refusing what the CLI refuses; scopes, company clients
 * refused on every route, bad input.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ISSUER_ROUTES } from "@/lib/api/manage/issuer-routes";
import { COMPANY_MANAGE_SCOPES } from "@/lib/oauth/scopes";
import { prismaStores } from "@/lib/store/stores";
import { useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { expectEveryRouteRefused } from "../../helpers/manage-refusals";
import { keySet, partnerKey } from "../../helpers/partner-keys";
import { runAdmin } from "../../helpers/admin-cli";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const stores = () => prismaStores(service().database.db);
let reader: string;
let writer: string;

const LENS = {
  issuer: "https://as.lens-maker.example",
  jwks_uri: "https://as.lens-maker.example/jwks",
  clients: ["fed-api-a"],
  subject: "email",
  email_domains: ["lens-maker.example"],
};
const lensPath = `/issuers/${encodeURIComponent(LENS.issuer)}`;

beforeAll(async () => {
  reader = (await managementToken(stores(), ["manage.issuers.read"])).token;
  writer = (await managementToken(stores(), ["manage.issuers.read", "manage.issuers.write"])).token;
  const writeClients = (await managementToken(stores(), ["manage.clients.write"])).token;
  for (const clientId of ["fed-api-a", "fed-api-b"]) {
    const body = {
      client_id: clientId,
      grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
      scope: "platform.catalogs.read",
    };
    expect((await manage("POST", "/clients", { token: writeClients, body })).response.status).toBe(201);
  }
});

describe(`/manage/v1/issuers on ${testProvider()}`, () => {
  it("refuses company clients and other scopes on every route", async () => {
    const company = await managementToken(stores(), COMPANY_MANAGE_SCOPES, "demo-company-optician");
    await expectEveryRouteRefused(ISSUER_ROUTES, company.token);
    await expectEveryRouteRefused(ISSUER_ROUTES, (await managementToken(stores(), ["manage.keys.write"])).token);
    expect((await manage("POST", "/issuers", { token: reader, body: LENS })).response.status).toBe(403);
    expect(await stores().trustedIssuers.list()).toEqual([]);
  });

  it("trusts an issuer, reads it by its encoded URL, lists it, and refuses it twice", async () => {
    const added = await manage("POST", "/issuers", { token: writer, body: LENS });
    expect(added.response.status, JSON.stringify(added.body)).toBe(201);
    expect(added.response.headers.get("location")).toBe(`/manage/v1${lensPath}`);
    expect(added.body).toMatchObject({ ...LENS, companies: [], linked_subjects: 0 });

    const read = await manage("GET", lensPath, { token: reader });
    expect(read.body).toEqual(added.body);
    expect(read.response.headers.get("etag")).toBe(added.response.headers.get("etag"));
    const listed = await manage("GET", "/issuers", { token: reader });
    expect(listed.body).toEqual({ items: [added.body], next: null });

    const twice = await manage("POST", "/issuers", { token: writer, body: LENS });
    expect(twice.response.status).toBe(409);
    // The CLI, whose `federation add` replaces, sees the issuer the API trusted.
    expect((await runAdmin(service().database.db, ["federation", "list"])).stdout).toContain(LENS.issuer);
  });

  it("replaces with PUT and merges with PATCH, both with If-Match; the issuer URL does not change", async () => {
    const read = await manage("GET", lensPath, { token: reader });
    const etag = read.response.headers.get("etag")!;
    const change = { ...LENS, clients: ["fed-api-a", "fed-api-b"] };
    expect((await manage("PUT", lensPath, { token: writer, body: change })).response.status).toBe(428);
    const stale = await manage("PUT", lensPath, { token: writer, body: change, headers: { "if-match": '"old"' } });
    expect(stale.response.status).toBe(412);
    const moved = await manage("PUT", lensPath, {
      token: writer,
      body: { ...change, issuer: "https://elsewhere.example" },
      headers: { "if-match": etag },
    });
    expect(moved.response.status).toBe(400);
    const replaced = await manage("PUT", lensPath, { token: writer, body: change, headers: { "if-match": etag } });
    expect(replaced.response.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.clients).toEqual(["fed-api-a", "fed-api-b"]);

    const keys = keySet(await partnerKey("ES256", "lens-api-1"));
    const patched = await manage("PATCH", lensPath, {
      token: writer,
      body: { jwks_uri: null, jwks: keys, companies: ["demo-company-vendor"] },
      headers: { "if-match": replaced.response.headers.get("etag")! },
    });
    expect(patched.response.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      jwks: keys,
      companies: ["demo-company-vendor"],
      email_domains: LENS.email_domains,
    });
    expect(patched.body).not.toHaveProperty("jwks_uri");

    const unknown = await manage("PUT", `/issuers/${encodeURIComponent("https://nobody.example")}`, {
      token: writer,
      body: LENS,
      headers: { "if-match": "*" },
    });
    expect(unknown.response.status).toBe(404);
    const events = await service().database.db.auditEvent.findMany({ where: { type: "federation.issuer_updated" } });
    expect(events).toHaveLength(2);
  });

  it("refuses what `federation add` refuses, with its words, and writes nothing", async () => {
    const before = await stores().trustedIssuers.list();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["unknown field", { ...LENS, issuer: "https://b.example", colour: "red" }, /unknown field "colour"/],
      ["nobody spoken for", { ...LENS, issuer: "https://b.example", email_domains: [] }, /name whom the issuer speaks/],
      ["unknown client", { ...LENS, issuer: "https://b.example", clients: ["nobody"] }, /there is no client "nobody"/],
      ["both key sources", { ...LENS, issuer: "https://b.example", jwks: { keys: [] } }, /either jwks_uri or jwks/],
      [
        "a client without a federation grant",
        { ...LENS, issuer: "https://b.example", clients: ["demo-web"] },
        /neither federation grant/,
      ],
    ];
    for (const [what, body, detail] of cases) {
      const { response, body: problem } = await manage("POST", "/issuers", { token: writer, body });
      expect(response.status, what).toBe(422);
      expect(problem.detail, what).toMatch(detail);
    }
    expect((await manage("POST", "/issuers", { token: writer, body: "{", headers: {} })).response.status).toBe(400);
    expect((await manage("GET", "/issuers?colour=red", { token: reader })).response.status).toBe(400);
    expect(await stores().trustedIssuers.list()).toEqual(before);
  });

  it("stops trusting an issuer; it is gone from the API and the CLI", async () => {
    expect((await manage("DELETE", lensPath, { token: writer })).response.status).toBe(204);
    expect((await manage("GET", lensPath, { token: reader })).response.status).toBe(404);
    const again = await manage("DELETE", lensPath, { token: writer });
    expect(again.response.status).toBe(404);
    expect(again.body.detail).toMatch(/is not a trusted issuer/);
    expect((await runAdmin(service().database.db, ["federation", "list"])).stdout).toBe("No trusted issuers.");
  });
});
