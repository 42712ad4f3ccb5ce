/**
 * /manage/v1/clients through the real route handler and database: the list with its status filter and cursor,
 * registering (the first secret shown once, and working), reading without secret values, replacing with If-Match,
 * reviewing a software vendor's applications, secrets made, expired and disabled, removal; scopes, company clients
 * refused on every route, and bad input answered with problems that write nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ROUTES } from "@/lib/api/manage/client-routes";
import { registerPartnerApplication } from "@/lib/admin/partner-applications";
import { COMPANY_MANAGE_SCOPES } from "@/lib/oauth/scopes";
import { prismaStores } from "@/lib/store/stores";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { expectEveryRouteRefused } from "../../helpers/manage-refusals";
import { clientToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const stores = () => prismaStores(service().database.db);
let reader: string;
let writer: string;

const backend = (clientId: string, scope = "manage.keys.read") => ({
  client_id: clientId,
  client_name: "ERP automation",
  grant_types: ["client_credentials"],
  scope,
});

/** A software vendor's application waiting for the operator, as the partner portal registers it. */
async function pendingApplication(clientId: string) {
  await registerPartnerApplication(
    { stores: stores(), config: { apiScopePrefix: "platform", publicUrl: ISSUER } },
    { id: "demo-company-vendor", partnerScopes: ["platform.catalogs.read"], partnerResources: [], sandbox: true },
    { client_id: clientId, client_name: "Vendor app", redirect_uris: ["https://vendor.example/cb"], scope: "openid" },
  );
}

beforeAll(async () => {
  reader = (await managementToken(stores(), ["manage.clients.read"])).token;
  // A client registers and changes only clients whose management scopes it holds itself (clients-reach.test.ts).
  const registers = ["manage.keys.read", "manage.outbox.read"];
  writer = (await managementToken(stores(), ["manage.clients.read", "manage.clients.write", ...registers])).token;
});

describe(`/manage/v1/clients on ${testProvider()}`, () => {
  it("refuses company clients and other scopes on every route", async () => {
    const company = await managementToken(stores(), COMPANY_MANAGE_SCOPES, "demo-company-optician");
    await expectEveryRouteRefused(CLIENT_ROUTES, company.token);
    const other = await managementToken(stores(), ["manage.companies.read", "manage.companies.write"]);
    await expectEveryRouteRefused(CLIENT_ROUTES, other.token);
    const write = await manage("POST", "/clients", { token: reader, body: backend("read-only-try") });
    expect(write.response.status).toBe(403);
    expect(await stores().clientRegistry.exists("read-only-try")).toBe(false);
  });

  it("lists the clients by id a page at a time, and the applications waiting with status=pending", async () => {
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const query: string = next ? `&cursor=${encodeURIComponent(next)}` : "";
      const page = await manage("GET", `/clients?limit=3${query}`, { token: reader });
      expect(page.response.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items.map((item: { client_id: string }) => item.client_id));
      next = page.body.next;
    } while (next);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining(["demo-web", "praxissoft-termine"]));
    expect(seen.length).toBe((await stores().clientRegistry.list()).length);

    const pending = await manage("GET", "/clients?status=pending", { token: reader });
    expect(pending.body.items.map((item: { client_id: string }) => item.client_id)).toContain("praxissoft-termine");
    expect(pending.body.items.every((item: { status: string }) => item.status === "pending")).toBe(true);
    expect(pending.body.items[0]).not.toHaveProperty("secrets");
    const backends = await manage("GET", "/clients?kind=backend", { token: reader });
    expect(backends.body.items.every((item: { client_kind: string }) => item.client_kind === "backend")).toBe(true);

    for (const query of ["status=lost", "kind=robot", "colour=red", "limit=0"])
      expect((await manage("GET", `/clients?${query}`, { token: reader })).response.status, query).toBe(400);
  });

  it("registers a backend client with management scopes; its secret is shown once and works", async () => {
    const added = await manage("POST", "/clients", { token: writer, body: backend("erp-automation") });
    expect(added.response.status).toBe(201);
    expect(added.response.headers.get("location")).toBe("/manage/v1/clients/erp-automation");
    expect(added.body).toMatchObject({ client_id: "erp-automation", client_kind: "backend", status: "approved" });
    const { client_secret: secret, client_secret_id: secretId } = added.body;
    expect(added.body.secrets).toEqual([expect.objectContaining({ id: secretId, status: "active" })]);

    const read = await manage("GET", "/clients/erp-automation", { token: reader });
    expect(read.response.headers.get("etag")).toBe(added.response.headers.get("etag"));
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(read.body).not.toHaveProperty("client_secret");

    const token = await clientToken("erp-automation", secret, "manage.keys.read");
    expect((await manage("GET", "/keys", { token })).response.status).toBe(200);

    const again = await manage("POST", "/clients", { token: writer, body: backend("erp-automation") });
    expect(again.response.status).toBe(409);
  });

  it("replaces the metadata with If-Match, as the edit form does, and refuses another client_id", async () => {
    await manage("POST", "/clients", { token: writer, body: backend("erp-change") });
    const read = await manage("GET", "/clients/erp-change", { token: reader });
    const etag = read.response.headers.get("etag")!;
    const change = backend("erp-change", "manage.keys.read manage.outbox.read");
    expect((await manage("PUT", "/clients/erp-change", { token: writer, body: change })).response.status).toBe(428);
    const stale = await manage("PUT", "/clients/erp-change", {
      token: writer,
      body: change,
      headers: { "if-match": '"stale"' },
    });
    expect(stale.response.status).toBe(412);
    const renamed = await manage("PUT", "/clients/erp-change", {
      token: writer,
      body: { ...change, client_id: "someone-else" },
      headers: { "if-match": etag },
    });
    expect(renamed.response.status).toBe(422);
    expect(renamed.body.detail).toMatch(/is not this client's/);

    // The record as read goes back, its server fields ignored.
    const replaced = await manage("PUT", "/clients/erp-change", {
      token: writer,
      body: { ...read.body, scope: change.scope },
      headers: { "if-match": etag },
    });
    expect(replaced.response.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.scope).toBe("manage.keys.read manage.outbox.read");
    expect(replaced.response.headers.get("etag")).not.toBe(etag);

    const unknown = await manage("PUT", "/clients/nobody-here", {
      token: writer,
      body: change,
      headers: { "if-match": "*" },
    });
    expect(unknown.response.status).toBe(404);
  });

  it("approves and rejects software vendors' applications; a rejection needs its reason", async () => {
    await pendingApplication("vendor-app-ok");
    await pendingApplication("vendor-app-no");
    const read = await manage("GET", "/clients/vendor-app-ok", { token: reader });
    expect(read.body).toMatchObject({ status: "pending", owner_company_id: "demo-company-vendor" });

    const stale = await manage("POST", "/clients/vendor-app-ok/approve", {
      token: writer,
      headers: { "if-match": '"stale"' },
    });
    expect(stale.response.status).toBe(412);
    const approved = await manage("POST", "/clients/vendor-app-ok/approve", {
      token: writer,
      headers: { "if-match": read.response.headers.get("etag")! },
    });
    expect(approved.response.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe("approved");
    expect((await manage("POST", "/clients/vendor-app-ok/approve", { token: writer })).response.status).toBe(409);

    for (const body of [{}, { reason: "   " }, { reason: "x".repeat(1001) }]) {
      const refused = await manage("POST", "/clients/vendor-app-no/reject", { token: writer, body });
      expect(refused.response.status, JSON.stringify(body)).toBe(422);
    }
    const extra = await manage("POST", "/clients/vendor-app-no/reject", {
      token: writer,
      body: { reason: "no", colour: "red" },
    });
    expect(extra.response.status).toBe(400);
    const rejected = await manage("POST", "/clients/vendor-app-no/reject", {
      token: writer,
      body: { reason: "The redirect URI is not the vendor's." },
    });
    expect(rejected.body).toMatchObject({ status: "rejected", review_note: "The redirect URI is not the vendor's." });
    expect((await manage("POST", "/clients/nobody-here/approve", { token: writer })).response.status).toBe(404);
  });

  it("adds secrets shown once, sets their expiry and disables them", async () => {
    await manage("POST", "/clients", { token: writer, body: backend("erp-secrets") });
    const past = await manage("POST", "/clients/erp-secrets/secrets", {
      token: writer,
      body: { expires_at: "2001-01-01" },
    });
    expect(past.response.status).toBe(409);
    expect(past.body.detail).toBe("a new secret's expiry must lie in the future");
    for (const body of [{ expires_at: "soon" }, { description: 7 }, { colour: "red" }])
      expect((await manage("POST", "/clients/erp-secrets/secrets", { token: writer, body })).response.status).toBe(400);

    const made = await manage("POST", "/clients/erp-secrets/secrets", {
      token: writer,
      body: { expires_at: "2099-12-31", description: "rotation 2099" },
    });
    expect(made.response.status).toBe(201);
    expect(made.body).toMatchObject({ client_id: "erp-secrets", expires_at: "2099-12-31T23:59:59.000Z" });
    await clientToken("erp-secrets", made.body.client_secret, "manage.keys.read");

    const secretPath = `/clients/erp-secrets/secrets/${made.body.secret_id}`;
    const never = await manage("POST", `${secretPath}/expiry`, { token: writer, body: { expires_at: null } });
    expect(never.body.secrets.find((s: { id: string }) => s.id === made.body.secret_id).expires_at).toBeNull();
    const disabled = await manage("POST", `${secretPath}/disable`, { token: writer });
    expect(disabled.body.secrets.find((s: { id: string }) => s.id === made.body.secret_id).status).toBe("disabled");
    expect((await manage("POST", `${secretPath}/disable`, { token: writer })).response.status).toBe(409);
    const unknown = await manage("POST", "/clients/erp-secrets/secrets/nobody-here/disable", { token: writer });
    expect(unknown.response.status).toBe(404);

    const publicClient = await manage("POST", "/clients", {
      token: writer,
      body: {
        client_id: "erp-spa",
        token_endpoint_auth_method: "none",
        redirect_uris: ["https://spa.example/cb"],
        allowed_cors_origins: ["https://spa.example"],
      },
    });
    expect(publicClient.response.status, JSON.stringify(publicClient.body)).toBe(201);
    expect(publicClient.body).not.toHaveProperty("client_secret");
    const noSecrets = await manage("POST", "/clients/erp-spa/secrets", { token: writer, body: {} });
    expect(noSecrets.response.status).toBe(409);
  });

  it("removes a client; bad metadata and bodies are refused and write nothing", async () => {
    await manage("POST", "/clients", { token: writer, body: backend("erp-gone") });
    expect((await manage("DELETE", "/clients/erp-gone", { token: writer })).response.status).toBe(204);
    expect((await manage("GET", "/clients/erp-gone", { token: reader })).response.status).toBe(404);
    expect((await manage("DELETE", "/clients/erp-gone", { token: writer })).response.status).toBe(404);

    const before = (await stores().clientRegistry.list()).length;
    const cases: [string, Parameters<typeof manage>[2], number][] = [
      ["not JSON", { token: writer, body: "{", headers: {} }, 400],
      ["not an object", { token: writer, body: "[]" }, 400],
      ["wrong media type", { token: writer, body: "a=b", headers: { "content-type": "text/plain" } }, 415],
      ["unknown field", { token: writer, body: { ...backend("erp-bad"), colour: "red" } }, 422],
      ["openid for a backend", { token: writer, body: backend("erp-bad", "openid") }, 422],
      [
        "manage scope on a web app",
        { token: writer, body: { redirect_uris: ["https://a.example/cb"], scope: "manage.keys.read" } },
        422,
      ],
      ["company scope without company", { token: writer, body: backend("erp-bad", "manage.company.users.read") }, 422],
      ["too large", { token: writer, body: { ...backend("erp-bad"), client_name: "x".repeat(70_000) } }, 413],
    ];
    for (const [what, options, status] of cases)
      expect((await manage("POST", "/clients", options)).response.status, what).toBe(status);
    expect((await stores().clientRegistry.list()).length).toBe(before);
    expect((await manage("GET", `/clients/${"x".repeat(300)}`, { token: reader })).response.status).toBe(404);
  });
});
