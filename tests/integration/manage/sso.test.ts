/**
 * /manage/v1/companies/{id}/sso and …/domains (issue 48) through the real route file on a real database: every route
 * and scope, a company's own client refused on another company route by route, an operator's client with an
 * operator's rules and a company's client with its administrator's (the registered-by-operator mark, a secret an
 * operator stored, vouching for a domain), If-Match, DNS verification against a DNS server on 127.0.0.1, the audit
 * trail naming the client, and bad input answered with 4xx problems.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dnsTxtLookup } from "@/lib/admin/domain-verification";
import { answerManageRequest } from "@/lib/api/manage/manage-api";
import { MANAGE_ROUTES } from "@/lib/api/manage/manage-routes";
import { getServiceContext, type ServiceContext } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { startDnsServer } from "../../helpers/dns-server";
import { MANAGE_DOCUMENT, manage, managementToken } from "../../helpers/manage-api";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { documentChecker } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const OPTICIAN = "demo-company-optician";
const LENS = "demo-company-lens";
const FRAMES = "demo-company-frames";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());

const settings = (changes: Record<string, unknown> = {}) => ({
  issuer: "https://idp.example.com",
  client_id: "optigate",
  client_secret: "upstream-secret-0123456789",
  scope: "openid email profile",
  claims: { groups: "groups", roles: { "shop-admins": "admin" } },
  ...changes,
});

/** Every route of the resource, with the body a call needs; `{c}` is the company, `{d}` a domain. */
const ROUTES: [string, string, unknown?][] = [
  ["GET", "/companies/{c}/sso"],
  ["PUT", "/companies/{c}/sso", settings()],
  ["DELETE", "/companies/{c}/sso"],
  ["POST", "/companies/{c}/sso/enable"],
  ["POST", "/companies/{c}/sso/disable"],
  ["GET", "/companies/{c}/domains"],
  ["POST", "/companies/{c}/domains", { domain: "new.example" }],
  ["GET", "/companies/{c}/domains/{d}"],
  ["DELETE", "/companies/{c}/domains/{d}"],
  ["POST", "/companies/{c}/domains/{d}/verify"],
];
const WRITES = new Set(["PUT", "DELETE", "POST"]);
const at = (path: string, company: string, domain = "lens.example") =>
  path.replace("{c}", company).replace("{d}", domain);

const tokens: Record<string, string> = {};
const clients: Record<string, string> = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const records = new Map<string, string[][]>();
const checkAgainstManageDocument = documentChecker(MANAGE_DOCUMENT);

/** A management call with the DNS lookup going to the test's server. */
async function manageWithDns(method: string, path: string, token: string) {
  const context: ServiceContext = {
    ...getServiceContext(),
    dnsLookup: dnsTxtLookup({ servers: [dns.server], timeoutMs: 2000 }),
  };
  const request = new Request(`${ISSUER}/manage/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const response = await answerManageRequest(MANAGE_ROUTES, request, context);
  return { response, body: await checkAgainstManageDocument(method, `/manage/v1${path}`, response) };
}

/** What the routes may write: providers, domains, their audit events. */
const written = async () => ({
  sso: await db().companySso.findMany({ orderBy: { companyId: "asc" } }),
  domains: await db().companyDomain.findMany({ orderBy: { domain: "asc" } }),
  audit: await db().auditEvent.count({ where: { type: { startsWith: "company." } } }),
});

const auditOf = (clientId: string) =>
  db()
    .auditEvent.findMany({ orderBy: { occurredAt: "asc" } })
    // The acting client is a column of its own (the audit stream), or was a field of the details.
    .then((events) =>
      events.filter(
        (event) => ((event as { byClientId?: string }).byClientId ?? JSON.parse(event.details).byClientId) === clientId,
      ),
    );

beforeAll(async () => {
  dns = await startDnsServer(records);
  const made: [string, string[], string?][] = [
    ["reader", ["manage.sso.read"]],
    ["writer", ["manage.sso.read", "manage.sso.write"]],
    ["optician", ["manage.company.sso.read", "manage.company.sso.write"], OPTICIAN],
    ["opticianReader", ["manage.company.sso.read"], OPTICIAN],
    ["opticianPeople", ["manage.company.users.read", "manage.company.users.write"], OPTICIAN],
    ["lens", ["manage.company.sso.read", "manage.company.sso.write"], LENS],
  ];
  for (const [name, scopes, company] of made) {
    const { clientId, token } = await managementToken(stores(), scopes, company);
    [tokens[name], clients[name]] = [token, clientId];
  }
});
afterAll(() => dns?.close());

describe(`the management API's company sign-in on ${testProvider()}`, () => {
  it("documents every route, secured by the operator's and the company's SSO scopes", () => {
    const documented = MANAGE_ROUTES.filter((route) => /\/(sso|domains)(\/|$)/.test(route.path)).map(
      (route) => `${route.method} ${route.path.replace("/manage/v1", "")}`,
    );
    expect(documented.sort()).toEqual(
      ROUTES.map(
        ([method, path]) => `${method} ${path.replace("{c}", "{companyId}").replace("{d}", "{domain}")}`,
      ).sort(),
    );
    for (const [method, path] of ROUTES) {
      const documentPath = `/manage/v1${path.replace("{c}", "{companyId}").replace("{d}", "{domain}")}`;
      const access = WRITES.has(method) ? "write" : "read";
      const operation = MANAGE_DOCUMENT.paths[documentPath][method.toLowerCase()] as { security: unknown };
      expect(operation.security, `${method} ${path}`).toEqual([
        { oauth2: [`manage.sso.${access}`] },
        { oauth2: [`manage.company.sso.${access}`] },
      ]);
    }
  });

  it("refuses, route by route, a company's client on another company and clients without the scope", async () => {
    // The other company has a provider and a domain, so that no refusal is a 404 by chance.
    expect(
      (await manage("PUT", `/companies/${LENS}/sso`, { token: tokens.lens, body: settings() })).response.status,
    ).toBe(201);
    expect(
      (await manage("POST", `/companies/${LENS}/domains`, { token: tokens.lens, body: { domain: "lens.example" } }))
        .response.status,
    ).toBe(201);
    const before = await written();
    for (const [method, path, body] of ROUTES) {
      const where = `${method} ${path}`;
      const other = await manage(method as "GET", at(path, LENS), { token: tokens.optician, body });
      expect([other.response.status, other.body.type], where).toEqual([403, "urn:optigate:problem:forbidden"]);
      const unscoped = await manage(method as "GET", at(path, OPTICIAN), { token: tokens.opticianPeople, body });
      expect([unscoped.response.status, unscoped.body.type], where).toEqual([
        403,
        "urn:optigate:problem:insufficient-scope",
      ]);
      const anonymous = await manage(method as "GET", at(path, LENS), { body });
      expect(anonymous.response.status, where).toBe(401);
      if (!WRITES.has(method)) continue;
      for (const reader of [tokens.reader, tokens.opticianReader]) {
        const readOnly = await manage(method as "GET", at(path, OPTICIAN), { token: reader, body });
        expect([readOnly.response.status, readOnly.body.type], where).toEqual([
          403,
          "urn:optigate:problem:insufficient-scope",
        ]);
      }
    }
    expect(await written()).toEqual(before);
  });

  it("lets an operator's client set up any company's provider: PUT with If-Match, GET without the secret, switches, DELETE", async () => {
    const path = `/companies/${FRAMES}/sso`;
    expect((await manage("GET", path, { token: tokens.reader })).response.status).toBe(404);
    const absent = await manage("PUT", path, { token: tokens.writer, body: settings(), headers: { "if-match": "*" } });
    expect(absent.response.status).toBe(412);

    const created = await manage("PUT", path, { token: tokens.writer, body: settings() });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get("location")).toBe(`/manage/v1${path}`);
    expect(created.body).toMatchObject({
      company_id: FRAMES,
      issuer: "https://idp.example.com",
      client_secret_set: true,
      enabled: false,
      sso_only: false,
      registered_by_operator: true,
      claims: { groups: "groups", roles: { "shop-admins": "admin" } },
    });
    expect(JSON.stringify(created.body)).not.toContain("upstream-secret");

    const read = await manage("GET", path, { token: tokens.reader });
    expect([read.response.status, read.body]).toEqual([200, created.body]);
    const etag = read.response.headers.get("etag")!;
    expect(JSON.stringify(read.body)).not.toContain("upstream-secret");

    const change = settings({ client_secret: undefined, scope: "openid email" });
    expect((await manage("PUT", path, { token: tokens.writer, body: change })).response.status).toBe(428);
    const stale = await manage("PUT", path, { token: tokens.writer, body: change, headers: { "if-match": '"old"' } });
    expect(stale.response.status).toBe(412);
    const replaced = await manage("PUT", path, { token: tokens.writer, body: change, headers: { "if-match": etag } });
    expect(replaced.response.status).toBe(200);
    expect(replaced.body).toMatchObject({ scope: "openid email", client_secret_set: true });
    expect(replaced.response.headers.get("etag")).not.toBe(etag);

    const on = await manage("POST", `${path}/enable`, { token: tokens.writer });
    expect([on.response.status, on.body.enabled]).toEqual([200, true]);
    const off = await manage("POST", `${path}/disable`, { token: tokens.writer });
    expect([off.response.status, off.body.enabled]).toEqual([200, false]);

    const removed = await manage("DELETE", path, { token: tokens.writer });
    expect(removed.response.status).toBe(204);
    expect((await manage("GET", path, { token: tokens.reader })).response.status).toBe(404);
    expect((await manage("DELETE", path, { token: tokens.writer })).response.status).toBe(404);
    expect((await manage("POST", `${path}/enable`, { token: tokens.writer })).response.status).toBe(404);

    expect((await auditOf(clients.writer)).map((event) => event.type)).toEqual([
      "company.sso_set",
      "company.sso_set",
      "company.sso_enabled",
      "company.sso_disabled",
      "company.sso_removed",
    ]);
  });

  it("holds a company's client to its administrator's rules, and an operator's client to an operator's", async () => {
    const path = `/companies/${OPTICIAN}/sso`;
    const own = await manage("PUT", path, { token: tokens.optician, body: settings() });
    expect(own.response.status).toBe(201);
    expect(own.body.registered_by_operator).toBe(false);
    expect((await manage("GET", path, { token: tokens.opticianReader })).response.status).toBe(200);

    // The operator's client stores a secret; only an operator keeps it without sending it again.
    const etag = (await manage("GET", path, { token: tokens.reader })).response.headers.get("etag")!;
    const byOperator = await manage("PUT", path, {
      token: tokens.writer,
      body: settings(),
      headers: { "if-match": etag },
    });
    expect(byOperator.body.registered_by_operator).toBe(true);
    const unchanged = settings({ client_secret: undefined });
    const keep = await manage("PUT", path, {
      token: tokens.optician,
      body: unchanged,
      headers: { "if-match": byOperator.response.headers.get("etag")! },
    });
    expect([keep.response.status, keep.body.type]).toEqual([422, "urn:optigate:problem:unprocessable"]);
    expect(keep.body.detail).toMatch(/stored secret is kept only .* by an operator/);

    // A role that does not fit the company is refused to both, and the operator's own company to any client.
    const developer = settings({ claims: { groups: "groups", roles: { devs: "developer" } } });
    for (const token of [tokens.optician, tokens.writer]) {
      const current = (await manage("GET", path, { token: tokens.reader })).response.headers.get("etag")!;
      const refused = await manage("PUT", path, { token, body: developer, headers: { "if-match": current } });
      expect([refused.response.status, refused.body.detail]).toEqual([409, expect.stringMatching(/^claims\.roles: /)]);
    }
    const operatorCompany = await manage("PUT", "/companies/demo-company-operator/sso", {
      token: tokens.writer,
      body: settings(),
    });
    expect([operatorCompany.response.status, operatorCompany.body.type]).toEqual([
      403,
      "urn:optigate:problem:forbidden",
    ]);
    expect((await manage("GET", "/companies/nobody-here/sso", { token: tokens.reader })).response.status).toBe(404);
    expect(
      (await manage("PUT", "/companies/nobody-here/sso", { token: tokens.writer, body: settings() })).response.status,
    ).toBe(404);
  });

  it("claims, lists, verifies by DNS and gives up domains; only an operator's client vouches for one", async () => {
    const base = `/companies/${OPTICIAN}/domains`;
    const claimed = await manage("POST", base, { token: tokens.optician, body: { domain: " Optik-Demo.EXAMPLE " } });
    expect(claimed.response.status).toBe(201);
    expect(claimed.response.headers.get("location")).toBe(`/manage/v1${base}/optik-demo.example`);
    expect(claimed.body).toMatchObject({ domain: "optik-demo.example", verified: false, company_id: OPTICIAN });
    const record = claimed.body.dns_record;
    expect(record).toMatchObject({ name: "_optigate-challenge.optik-demo.example", type: "TXT" });

    const vouched = await manage("POST", base, {
      token: tokens.optician,
      body: { domain: "b.example", verified: true },
    });
    expect(vouched.response.status).toBe(403);
    const byOperator = await manage("POST", base, {
      token: tokens.writer,
      body: { domain: "b.example", verified: true },
    });
    expect(byOperator.body).toMatchObject({ domain: "b.example", verified: true, verified_by: "operator" });

    const first = await manage("GET", `${base}?limit=1`, { token: tokens.opticianReader });
    expect(first.body.items.map((item: { domain: string }) => item.domain)).toEqual(["b.example"]);
    const second = await manage("GET", `${base}?limit=1&cursor=${encodeURIComponent(first.body.next)}`, {
      token: tokens.opticianReader,
    });
    expect([second.body.items[0].domain, second.body.next]).toEqual(["optik-demo.example", null]);
    const cursorElsewhere = await manage(
      "GET",
      `/companies/${LENS}/domains?cursor=${encodeURIComponent(first.body.next)}`,
      {
        token: tokens.reader,
      },
    );
    expect(cursorElsewhere.response.status).toBe(400);
    const one = await manage("GET", `${base}/OPTIK-demo.example`, { token: tokens.reader });
    expect([one.response.status, one.body.domain]).toEqual([200, "optik-demo.example"]);

    const verify = `${base}/optik-demo.example/verify`;
    const early = await manageWithDns("POST", verify, tokens.optician);
    expect([early.response.status, early.body.detail]).toEqual([422, expect.stringMatching(/^there is no TXT record/)]);
    records.set(record.name, [[record.value]]);
    const verified = await manageWithDns("POST", verify, tokens.optician);
    expect([verified.response.status, verified.body.verified_by]).toEqual([200, "dns"]);
    const unclaimed = await manageWithDns("POST", `${base}/unclaimed.example/verify`, tokens.optician);
    expect(unclaimed.response.status).toBe(404);

    // Another company's verified domain: the company's client is not told whose it is, the operator's is.
    const taken = await manage("POST", `/companies/${LENS}/domains`, {
      token: tokens.lens,
      body: { domain: "optik-demo.example" },
    });
    expect([taken.response.status, taken.body.detail]).toEqual([422, expect.not.stringContaining(OPTICIAN)]);
    const takenForOperator = await manage("POST", `/companies/${LENS}/domains`, {
      token: tokens.writer,
      body: { domain: "optik-demo.example" },
    });
    expect(takenForOperator.body.detail).toContain(OPTICIAN);
    expect(
      (await manage("DELETE", `/companies/${LENS}/domains/optik-demo.example`, { token: tokens.lens })).response.status,
    ).toBe(404);

    expect((await manage("DELETE", `${base}/optik-demo.example`, { token: tokens.optician })).response.status).toBe(
      204,
    );
    expect((await manage("DELETE", `${base}/optik-demo.example`, { token: tokens.optician })).response.status).toBe(
      404,
    );
    expect((await manage("GET", `${base}/optik-demo.example`, { token: tokens.optician })).response.status).toBe(404);
    expect((await auditOf(clients.optician)).map((event) => event.type)).toEqual(
      expect.arrayContaining(["company.domain_added", "company.domain_verified", "company.domain_removed"]),
    );
  });

  it("answers bad input with a 4xx problem and writes nothing", async () => {
    const before = await written();
    const sso = `/companies/${OPTICIAN}/sso`;
    const etag = (await manage("GET", sso, { token: tokens.reader })).response.headers.get("etag")!;
    const put = (body: unknown, headers: Record<string, string> = {}) =>
      manage("PUT", sso, { token: tokens.optician, body, headers: { "if-match": etag, ...headers } });
    const cases: [string, Promise<{ response: Response }>, number][] = [
      ["not JSON", put("{"), 400],
      ["an array", put("[]"), 400],
      ["wrong media type", put("issuer=x", { "content-type": "text/plain" }), 415],
      ["unknown field", put(settings({ colour: "red" })), 422],
      ["no issuer", put(settings({ issuer: undefined })), 422],
      ["an issuer with a query", put(settings({ issuer: "https://idp.example.com?x=1" })), 422],
      ["scope without openid", put(settings({ scope: "email" })), 422],
      ["a bad tenant", put(settings({ tenant_id: "contoso" })), 422],
      ["a secret too long", put(settings({ client_secret: "s".repeat(600) })), 422],
      ["a query", manage("GET", `${sso}?x=1`, { token: tokens.reader }), 400],
      [
        "a domain that is none",
        manage("POST", `/companies/${OPTICIAN}/domains`, { token: tokens.optician, body: { domain: "not a domain" } }),
        422,
      ],
      [
        "an address",
        manage("POST", `/companies/${OPTICIAN}/domains`, { token: tokens.optician, body: { domain: "192.0.2.1" } }),
        422,
      ],
      [
        "verified as text",
        manage("POST", `/companies/${OPTICIAN}/domains`, {
          token: tokens.writer,
          body: { domain: "c.example", verified: "yes" },
        }),
        400,
      ],
      [
        "an unknown field",
        manage("POST", `/companies/${OPTICIAN}/domains`, {
          token: tokens.writer,
          body: { domain: "c.example", why: 1 },
        }),
        400,
      ],
      [
        "a domain too long",
        manage("POST", `/companies/${OPTICIAN}/domains`, { token: tokens.writer, body: { domain: "a".repeat(400) } }),
        400,
      ],
      ["a segment too long", manage("GET", `/companies/${"x".repeat(300)}/sso`, { token: tokens.reader }), 404],
      ["the wrong method", manage("PATCH", sso, { token: tokens.writer, body: {} }), 405],
    ];
    for (const [what, pending, status] of cases) {
      const { response } = await pending;
      expect(response.status, what).toBe(status);
    }
    expect(await written()).toEqual(before);
  });
});
