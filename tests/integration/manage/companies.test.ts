/**
 * The management API's frame, shown on /manage/v1/companies: the document, tokens and scopes (an operator's client,
 * a company's own, a user's, another audience's), paging with a signed cursor, ETags and If-Match, the audit trail
 * naming the client, and bad input answered with problems.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { prismaStores } from "@/lib/store/stores";
import { formRequest, basic, call, useOAuthService } from "../../helpers/oauth-service";
import { MANAGE_DOCUMENT, manage, managementToken } from "../../helpers/manage-api";
import { userToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const stores = () => prismaStores(service().database.db);
let reader: string;
let writer: { clientId: string; token: string };

beforeAll(async () => {
  reader = (await managementToken(stores(), ["manage.companies.read"])).token;
  writer = await managementToken(stores(), ["manage.companies.read", "manage.companies.write"]);
});

describe(`the management API on ${testProvider()}`, () => {
  it("serves a valid OpenAPI 3.1 document without a token, every route secured by its scopes", async () => {
    const { response, body } = await manage("GET", "/openapi.json");
    expect(response.status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(MANAGE_DOCUMENT)));
    const validator = new Validator();
    const result = await validator.validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(validator.version).toBe("3.1");
    expect(Object.keys(body.paths).every((path) => path.startsWith("/manage/v1/"))).toBe(true);
    expect(body.paths["/manage/v1/companies"].get.security).toEqual([{ oauth2: ["manage.companies.read"] }]);
    expect(Object.keys(body.components.securitySchemes.oauth2.flows.clientCredentials.scopes)).toContain(
      "manage.company.users.write",
    );
  });

  it("refuses calls without a token, with another scope, of a user, or for another resource server", async () => {
    const none = await manage("GET", "/companies");
    expect(none.response.status).toBe(401);
    expect(none.response.headers.get("www-authenticate")).toContain("Bearer");

    const post = await manage("POST", "/companies", { token: reader, body: { kind: "supplier", name: "X" } });
    expect(post.response.status).toBe(403);
    expect(post.body.type).toBe("urn:optigate:problem:insufficient-scope");

    const company = await managementToken(stores(), ["manage.company.users.read"], "demo-company-optician");
    expect((await manage("GET", "/companies", { token: company.token })).response.status).toBe(403);

    const user = await userToken("admin@demo.test", "Admin#2026", "openid platform.catalogs.read");
    expect((await manage("GET", "/companies", { token: user })).response.status).toBe(403);

    const platformToken = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials", scope: "manage.companies.read", resource: "http://localhost:3000" },
        { authorization: basic(writer.clientId, `${writer.clientId}-secret`) },
      ),
    );
    const other = (await platformToken.json()).access_token;
    expect((await manage("GET", "/companies", { token: other })).response.status).toBe(401);
  });

  it("pages through the companies with a cursor that holds its filter", async () => {
    const first = await manage("GET", "/companies?limit=2", { token: reader });
    expect(first.response.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    const seen = [...first.body.items];
    let next = first.body.next as string | null;
    while (next) {
      const page = await manage("GET", `/companies?limit=2&cursor=${encodeURIComponent(next)}`, { token: reader });
      seen.push(...page.body.items);
      next = page.body.next;
    }
    const ids = seen.map((company) => company.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("demo-company-optician");

    const cursor = first.body.next as string;
    const otherFilter = await manage("GET", `/companies?q=demo&cursor=${encodeURIComponent(cursor)}`, {
      token: reader,
    });
    expect(otherFilter.response.status).toBe(400);
    const tampered = await manage("GET", `/companies?cursor=${encodeURIComponent(`x${cursor}`)}`, { token: reader });
    expect(tampered.response.status).toBe(400);
  });

  it("adds, replaces with If-Match, deactivates and activates a company, each audited as the client", async () => {
    const added = await manage("POST", "/companies", {
      token: writer.token,
      body: { id: "erp-shop-1", kind: "eye_care_professional", name: "ERP Shop", country: "DE" },
    });
    expect(added.response.status).toBe(201);
    expect(added.response.headers.get("location")).toBe("/manage/v1/companies/erp-shop-1");
    const etag = added.response.headers.get("etag")!;

    const again = await manage("POST", "/companies", {
      token: writer.token,
      body: { id: "erp-shop-1", kind: "eye_care_professional", name: "Twice", country: "DE" },
    });
    expect(again.response.status, JSON.stringify(again.body)).toBe(409);

    const change = { kind: "eye_care_professional", name: "ERP Shop GmbH", country: "AT" };
    const unconditional = await manage("PUT", "/companies/erp-shop-1", { token: writer.token, body: change });
    expect(unconditional.response.status).toBe(428);
    const stale = await manage("PUT", "/companies/erp-shop-1", {
      token: writer.token,
      body: change,
      headers: { "if-match": '"stale"' },
    });
    expect(stale.response.status).toBe(412);
    const replaced = await manage("PUT", "/companies/erp-shop-1", {
      token: writer.token,
      body: change,
      headers: { "if-match": etag },
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: "ERP Shop GmbH", country: "AT" });
    expect(replaced.response.headers.get("etag")).not.toBe(etag);

    const kindChange = await manage("PUT", "/companies/erp-shop-1", {
      token: writer.token,
      body: { kind: "software_vendor", name: "ERP Shop GmbH", country: "AT" },
      headers: { "if-match": replaced.response.headers.get("etag")! },
    });
    expect(kindChange.response.status, JSON.stringify(kindChange.body)).toBe(409);

    const off = await manage("POST", "/companies/erp-shop-1/deactivate", { token: writer.token });
    expect(off.body.active).toBe(false);
    const on = await manage("POST", "/companies/erp-shop-1/activate", { token: writer.token });
    expect(on.body.active).toBe(true);

    const mine = await stores().audit.page({ actor: writer.clientId, kind: "company." }, { take: 20 });
    expect(mine.map((event) => [event.type, event.byClientId, event.companyId]).sort()).toEqual(
      ["company.activated", "company.added", "company.deactivated", "company.updated"].map((type) => [
        type,
        writer.clientId,
        "erp-shop-1",
      ]),
    );
    expect(mine.every((event) => !("byClientId" in JSON.parse(event.details)))).toBe(true);
  });

  it("answers bad input with a problem and writes nothing", async () => {
    const cases: [string, Parameters<typeof manage>[2]][] = [
      ["not JSON", { token: writer.token, body: "{", headers: {} }],
      ["wrong media type", { token: writer.token, body: "kind=x", headers: { "content-type": "text/plain" } }],
      ["unknown field", { token: writer.token, body: { kind: "supplier", name: "X", colour: "red" } }],
      ["bad kind", { token: writer.token, body: { kind: "pirate", name: "X" } }],
    ];
    for (const [what, options] of cases) {
      const { response } = await manage("POST", "/companies", options);
      expect([400, 415, 422], what).toContain(response.status);
    }
    expect((await manage("GET", "/companies?colour=red", { token: reader })).response.status).toBe(400);
    expect((await manage("GET", "/companies/nobody-here", { token: reader })).response.status).toBe(404);
    expect((await manage("GET", "/nothing", { token: reader })).response.status).toBe(404);
    const wrongMethod = await manage("DELETE", "/companies", { token: writer.token });
    expect(wrongMethod.response.status).toBe(405);
    expect(wrongMethod.response.headers.get("allow")).toBe("GET, HEAD, POST");
    expect((await manage("GET", `/companies/${"x".repeat(300)}`, { token: reader })).response.status).toBe(404);
  });
});
