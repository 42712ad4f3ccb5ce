/**
 * /manage/v1/webhooks: endpoints of the platform and of companies, their secrets shown once, If-Match, the delivery
 * log in pages, company-scoped clients held to their company on every route (another company's endpoint is not
 * found), scopes, and bad input answered with 4xx problems that write nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { prismaStores } from "@/lib/store/stores";
import { unseal } from "@/lib/crypto/secret-box";
import { MANAGE_DOCUMENT, manage, managementToken } from "../../helpers/manage-api";
import { SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

// The operator may register endpoints on the loopback (as CONTRACT §14 says); a company's administrator never may.
process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const stores = () => prismaStores(service().database.db);
const OPTICIAN = "demo-company-optician";
const LENS = "demo-company-lens";
const RW = ["manage.webhooks.read", "manage.webhooks.write"];
const COMPANY_RW = ["manage.company.webhooks.read", "manage.company.webhooks.write"];
let operator: { clientId: string; token: string };
let optician: string;
let opticianReader: string;

const hook = (url = "https://hooks.example.com/optigate", events = ["user.created"]) => ({ url, events });

beforeAll(async () => {
  operator = await managementToken(stores(), RW);
  optician = (await managementToken(stores(), COMPANY_RW, OPTICIAN)).token;
  opticianReader = (await managementToken(stores(), ["manage.company.webhooks.read"], OPTICIAN)).token;
});

describe(`webhook endpoints through the management API on ${testProvider()}`, () => {
  it("describes every webhook route with its operator and company scopes", () => {
    const paths = MANAGE_DOCUMENT.paths as Record<string, Record<string, { security: unknown }>>;
    expect(paths["/manage/v1/webhooks"].post.security).toEqual([
      { oauth2: ["manage.webhooks.write"] },
      { oauth2: ["manage.company.webhooks.write"] },
    ]);
    expect(Object.keys(paths).filter((path) => path.startsWith("/manage/v1/webhooks"))).toHaveLength(5);
  });

  it("adds a platform endpoint with its secret shown once, changes it with If-Match, re-keys and removes it", async () => {
    const added = await manage("POST", "/webhooks", {
      token: operator.token,
      body: { url: "https://erp.example.com/hooks", description: "ERP", events: ["user.created", "user.erased"] },
    });
    expect(added.response.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({
      company_id: null,
      enabled: true,
      registered_by_operator: true,
      events: ["user.created", "user.erased"],
    });
    const { id, secret } = added.body as { id: string; secret: string };
    expect(added.response.headers.get("location")).toBe(`/manage/v1/webhooks/${id}`);
    expect(secret).toMatch(/^whsec_/);
    const row = await service().database.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.secretSealed).not.toContain(secret.slice(6));
    expect(unseal(row.secretSealed, SECRET_KEY, "webhook-secret")).toBe(secret);

    const read = await manage("GET", `/webhooks/${id}`, { token: operator.token });
    expect(read.body.secret).toBeUndefined();
    const etag = read.response.headers.get("etag")!;
    expect(etag).toBe(added.response.headers.get("etag"));
    const change = { events: ["user.created"], enabled: false };
    expect((await manage("PATCH", `/webhooks/${id}`, { token: operator.token, body: change })).response.status).toBe(
      428,
    );
    const stale = { token: operator.token, body: change, headers: { "if-match": '"stale"' } };
    expect((await manage("PATCH", `/webhooks/${id}`, stale)).response.status).toBe(412);
    const changed = await manage("PATCH", `/webhooks/${id}`, { ...stale, headers: { "if-match": etag } });
    expect(changed.body).toMatchObject({ events: ["user.created"], enabled: false, description: "ERP" });

    const rotated = await manage("POST", `/webhooks/${id}/secret`, { token: operator.token });
    expect(rotated.response.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    const listed = await manage("GET", "/webhooks", { token: operator.token });
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");

    expect((await manage("DELETE", `/webhooks/${id}`, { token: operator.token })).response.status).toBe(204);
    expect((await manage("GET", `/webhooks/${id}`, { token: operator.token })).response.status).toBe(404);
    const trail = await stores().audit.list({}, 50);
    const mine = trail.filter((event) => JSON.parse(event.details).webhookId === id);
    expect(mine.map((event) => [event.type, event.byClientId]).sort()).toEqual([
      ["webhook.added", operator.clientId],
      ["webhook.removed", operator.clientId],
      ["webhook.secret_rotated", operator.clientId],
      ["webhook.updated", operator.clientId],
    ]);
  });

  it("keeps a company's client to its company's endpoints; another company's are not found, on every route", async () => {
    const own = await manage("POST", "/webhooks", { token: optician, body: hook() });
    expect(own.response.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body).toMatchObject({ company_id: OPTICIAN, registered_by_operator: false });
    const lens = await manage("POST", `/webhooks?companyId=${LENS}`, {
      token: operator.token,
      body: hook(),
    });
    expect(lens.body.company_id).toBe(LENS);
    const platform = await manage("POST", "/webhooks", { token: operator.token, body: hook() });

    const seen = await manage("GET", "/webhooks", { token: opticianReader });
    expect(seen.body.items.map((item: { id: string }) => item.id)).toEqual([own.body.id]);
    expect((await manage("GET", `/webhooks?companyId=${OPTICIAN}`, { token: optician })).response.status).toBe(200);
    expect((await manage("GET", `/webhooks?companyId=${LENS}`, { token: optician })).response.status).toBe(403);
    expect(
      (await manage("POST", `/webhooks?companyId=${LENS}`, { token: optician, body: hook() })).response.status,
    ).toBe(403);
    const operatorView = await manage("GET", `/webhooks?companyId=${OPTICIAN}`, { token: operator.token });
    expect(operatorView.body.items.map((item: { id: string }) => item.id)).toEqual([own.body.id]);

    for (const other of [lens.body.id, platform.body.id]) {
      const etag = { "if-match": "*" };
      const calls: [string, Parameters<typeof manage>[0], string, object?][] = [
        ["read", "GET", `/webhooks/${other}`],
        ["change", "PATCH", `/webhooks/${other}`, { body: { enabled: false }, headers: etag }],
        ["re-key", "POST", `/webhooks/${other}/secret`],
        ["log", "GET", `/webhooks/${other}/deliveries`],
        ["replay", "POST", `/webhooks/${other}/deliveries/msg_x/replay`],
        ["remove", "DELETE", `/webhooks/${other}`],
      ];
      for (const [what, method, path, options] of calls) {
        const { response } = await manage(method, path, { token: optician, ...options });
        expect(response.status, `${what} ${other}`).toBe(404);
      }
    }
    expect((await manage("GET", `/webhooks/${lens.body.id}`, { token: operator.token })).response.status).toBe(200);
    const readOnly = await manage("POST", "/webhooks", { token: opticianReader, body: hook() });
    expect([readOnly.response.status, readOnly.body.type]).toEqual([403, "urn:optigate:problem:insufficient-scope"]);
    const platformReader = (await managementToken(stores(), ["manage.webhooks.read"])).token;
    expect((await manage("DELETE", `/webhooks/${lens.body.id}`, { token: platformReader })).response.status).toBe(403);
    expect(
      (await manage("GET", "/webhooks?companyId=no-such-company", { token: platformReader })).response.status,
    ).toBe(404);
  });

  it("holds a company's endpoint to public addresses, whatever OUTBOUND_ALLOW says; an operator's may use it", async () => {
    for (const url of ["https://127.0.0.1/hooks", "http://127.0.0.1:8080/hooks", "https://localhost/h"]) {
      const refused = await manage("POST", "/webhooks", { token: optician, body: hook(url) });
      expect(refused.response.status, url).toBe(422);
      expect(refused.body.detail).toMatch(/public address/);
    }
    const allowed = await manage("POST", "/webhooks", { token: operator.token, body: hook("http://127.0.0.1:9/h") });
    expect(allowed.response.status).toBe(201);
    const internal = await manage("POST", "/webhooks", { token: operator.token, body: hook("https://10.0.0.1/h") });
    expect([internal.response.status, internal.body.detail]).toEqual([422, expect.stringMatching(/10\.0\.0\.1/)]);
  });

  it("answers bad input with a 4xx problem and writes nothing; an owner keeps at most 20 endpoints", async () => {
    const count = () => service().database.db.webhookEndpoint.count();
    const before = await count();
    const cases: [string, Parameters<typeof manage>[2]][] = [
      ["not JSON", { token: optician, body: "{" }],
      ["wrong media type", { token: optician, body: "url=x", headers: { "content-type": "text/plain" } }],
      ["unknown field", { token: optician, body: { ...hook(), colour: "red" } }],
      ["no events", { token: optician, body: hook(undefined, []) }],
      ["unknown event", { token: optician, body: hook(undefined, ["user.exploded"]) }],
      ["events not a list", { token: optician, body: { url: "https://hooks.example.com/x", events: "user.created" } }],
      ["no url", { token: optician, body: { events: ["user.created"] } }],
      ["http", { token: optician, body: hook("http://hooks.example.com/x") }],
      ["not a URL", { token: optician, body: hook("hooks") }],
      ["credentials", { token: optician, body: hook("https://me:pw@hooks.example.com/x") }],
      ["too long", { token: optician, body: hook(`https://hooks.example.com/${"x".repeat(2000)}`) }],
      ["long description", { token: optician, body: { ...hook(), description: "d".repeat(201) } }],
      ["description lines", { token: optician, body: { ...hook(), description: "a\nb" } }],
    ];
    for (const [what, options] of cases) {
      const { response } = await manage("POST", "/webhooks", options);
      expect([400, 415, 422], what).toContain(response.status);
    }
    expect((await manage("GET", "/webhooks?colour=red", { token: optician })).response.status).toBe(400);
    expect((await manage("GET", "/webhooks?cursor=forged", { token: optician })).response.status).toBe(400);
    expect(await count()).toBe(before);

    const company = await stores().companies.insert("webhook-limit-shop", {
      name: "Limit Shop",
      kind: "eye_care_professional",
      webServices: [],
    });
    expect(typeof company).toBe("object");
    for (let index = 0; index < 20; index++) {
      const added = await manage("POST", "/webhooks?companyId=webhook-limit-shop", {
        token: operator.token,
        body: hook(),
      });
      expect(added.response.status).toBe(201);
    }
    const tooMany = await manage("POST", "/webhooks?companyId=webhook-limit-shop", {
      token: operator.token,
      body: hook(),
    });
    expect([tooMany.response.status, tooMany.body.detail]).toEqual([422, expect.stringMatching(/at most 20/)]);
    const first = (await manage("GET", "/webhooks?companyId=webhook-limit-shop&limit=15", { token: operator.token }))
      .body;
    const rest = await manage(
      "GET",
      `/webhooks?companyId=webhook-limit-shop&limit=15&cursor=${encodeURIComponent(first.next)}`,
      { token: operator.token },
    );
    expect(first.items.length + rest.body.items.length).toBe(20);
    expect(rest.body.next).toBeNull();
  });

  it("pages an endpoint's delivery log, newest first, with a cursor of its own", async () => {
    const endpoint = await manage("POST", "/webhooks", {
      token: optician,
      body: hook(undefined, ["user.deactivated"]),
    });
    const user = await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    // Recorded as a deactivation records it, without deactivating the demo's administrator.
    for (let index = 0; index < 5; index++)
      await stores().audit.record({ type: "user.deactivated", details: { subjectUserId: user.id } });
    const path = `/webhooks/${endpoint.body.id}/deliveries`;
    const first = await manage("GET", `${path}?limit=2`, { token: opticianReader });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toMatchObject({
      webhook_id: endpoint.body.id,
      event_type: "user.deactivated",
      status: "queued",
      attempts: 0,
      last_status: null,
      payload: { type: "user.deactivated", data: { userId: user.id, companyId: OPTICIAN } },
    });
    const ids = first.body.items.map((item: { id: string }) => item.id);
    let next = first.body.next as string | null;
    while (next) {
      const page = await manage("GET", `${path}?limit=2&cursor=${encodeURIComponent(next)}`, { token: optician });
      ids.push(...page.body.items.map((item: { id: string }) => item.id));
      next = page.body.next;
    }
    expect(new Set(ids).size).toBe(5);
    const other = await manage("POST", "/webhooks", { token: optician, body: hook() });
    const foreign = await manage(
      "GET",
      `/webhooks/${other.body.id}/deliveries?cursor=${encodeURIComponent(first.body.next)}`,
      { token: optician },
    );
    expect(foreign.response.status).toBe(400);
    const waiting = await manage("POST", `${path}/${ids[0]}/replay`, { token: optician });
    expect(waiting.response.status).toBe(409);
    expect((await manage("POST", `${path}/msg_none/replay`, { token: optician })).response.status).toBe(404);
  });
});
