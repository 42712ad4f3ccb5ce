/**
 * /manage/v1/audit-events (issue 48, "audit as a stream") through the route file on a real database: operators'
 * clients with manage.audit.read only; pages filtered by actor, company, kind and time, with cursors that hold their
 * filters; the management client that acted in a column of its own; the export as JSON Lines over 100,000 events,
 * followed through its Link headers to the end; bad filters answered 400; the retention purge of the cron route.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { insertRows, type InsertColumn } from "@/lib/db/run-statement";
import { auditEventsFor } from "@/lib/rights/operator-audit";
import { AccessDenied } from "@/lib/rights/actor";
import { handleCronPurge } from "@/lib/server/cron-endpoints";
import { serviceContextFor } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { userToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
let reader: string;

const BULK = 100_000;
const BULK_COMPANY = "audit-bulk-company";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INSERTED_COLUMNS: InsertColumn[] = [
  { name: "id", type: "text" },
  { name: "occurred_at", type: "timestamp(3)" },
  { name: "type", type: "text" },
  { name: "company_id", type: "text" },
  { name: "details", type: "text" },
];

/** Events of a company of their own, `count` of them, four to a millisecond, the newest first by index. */
async function insertEvents(companyId: string, count: number, newest: Date, type = (_: number) => "user.invited") {
  const rows = Array.from({ length: count }, (_, index) => [
    `${companyId}-${String(index).padStart(6, "0")}`,
    new Date(newest.getTime() - Math.floor(index / 4)),
    type(index),
    companyId,
    JSON.stringify({ index }),
  ]);
  for (let start = 0; start < count; start += 10_000)
    await insertRows(db(), "audit_events", INSERTED_COLUMNS, rows.slice(start, start + 10_000));
}

/** The ids in the trail's order, newest first by time, then by id. */
const trailOrder = (events: { id: string; occurredAt: Date }[]) =>
  [...events]
    .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((event) => event.id);

/** Follows the export's Link headers from `path` to the end: every event, and the number of responses. */
async function exportAll(path: string) {
  const events: { id: string; occurred_at: string; company_id: string; type: string }[] = [];
  let next: string | null = path;
  let responses = 0;
  while (next) {
    const { response, body } = await manage("GET", next, { token: reader });
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    events.push(...body);
    responses++;
    const link = response.headers.get("link");
    const url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    if (link) expect(url?.startsWith(`${ISSUER}/manage/v1/audit-events/export?`), link).toBe(true);
    next = url ? url.slice(`${ISSUER}/manage/v1`.length) : null;
  }
  return { events, responses };
}

beforeAll(async () => {
  reader = (await managementToken(stores(), ["manage.audit.read"])).token;
});

describe(`the audit trail on the management API, ${testProvider()}`, () => {
  it("is described in the OpenAPI document and reached with manage.audit.read only, by operators' clients", async () => {
    const document = (await manage("GET", "/openapi.json")).body;
    for (const path of ["/manage/v1/audit-events", "/manage/v1/audit-events/export"])
      expect(document.paths[path].get.security).toEqual([{ oauth2: ["manage.audit.read"] }]);
    expect(Object.keys(document.paths["/manage/v1/audit-events/export"].get.responses["200"].content)).toEqual([
      "application/x-ndjson",
    ]);

    expect((await manage("GET", "/audit-events", { token: reader })).response.status).toBe(200);
    expect((await manage("GET", "/audit-events")).response.status).toBe(401);
    const other = await managementToken(stores(), ["manage.companies.read"]);
    const refused = await manage("GET", "/audit-events/export", { token: other.token });
    expect([refused.response.status, refused.body.type]).toEqual([403, "urn:optigate:problem:insufficient-scope"]);
    const company = await managementToken(stores(), ["manage.company.users.read"], "demo-company-optician");
    expect((await manage("GET", "/audit-events", { token: company.token })).response.status).toBe(403);
    const user = await userToken("admin@demo.test", "Admin#2026", "openid platform.catalogs.read");
    expect((await manage("GET", "/audit-events", { token: user })).response.status).toBe(403);

    // The rights function itself refuses a company's own client, whatever scopes it claims.
    const context = serviceContextFor(stores(), loadConfig());
    const acting = { id: "demo-company-optician", name: "Optik", kind: "eye_care_professional" };
    const companyClient = {
      kind: "manager" as const,
      context,
      clientId: "x",
      scopes: new Set(["manage.audit.read"]),
      company: { ...acting, supplierId: null, requireSecondFactor: false },
    };
    await expect(auditEventsFor(companyClient, {}, { take: 1 })).rejects.toBeInstanceOf(AccessDenied);
  });

  it("names the management client that acted in by_client_id, and finds its events as their actor", async () => {
    const writer = await managementToken(stores(), ["manage.companies.write"]);
    const added = await manage("POST", "/companies", {
      token: writer.token,
      body: { id: "audit-erp-shop", kind: "eye_care_professional", name: "Audited shop", country: "DE" },
    });
    expect(added.response.status).toBe(201);
    // As actor, a client is found where it acted and where it is the client an event concerns (its registration).
    const { body } = await manage("GET", `/audit-events?actor=${writer.clientId}`, { token: reader });
    const types = body.items.map((event: { type: string }) => event.type);
    // The registration and its first secret are recorded in one transaction, often in the same millisecond, where
    // the trail orders them by their random ids: either may come first.
    expect(types[0]).toBe("company.added");
    expect(types.slice(1).sort()).toEqual(["client.registered", "client.secret_added"]);
    expect(body.items[0]).toEqual(
      expect.objectContaining({
        by_client_id: writer.clientId,
        company_id: "audit-erp-shop",
        user_id: null,
        client_id: null,
        details: { companyId: "audit-erp-shop", companyKind: "eye_care_professional" },
      }),
    );
    const byCompany = await manage("GET", "/audit-events?companyId=audit-erp-shop", { token: reader });
    expect(byCompany.body.items.map((event: { id: string }) => event.id)).toEqual([body.items[0].id]);
  });

  it("pages newest first with the filters, a cursor only for its own filters, and refuses bad filters", async () => {
    const newest = new Date(Date.now() - 2 * DAY);
    const family = (index: number) =>
      index % 3 === 0 ? "client.updated" : index % 3 === 1 ? "user.joined" : "user.invited";
    await insertEvents("audit-paged", 30, newest, family);
    const page = (query: string) => manage("GET", `/audit-events?companyId=audit-paged&${query}`, { token: reader });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { response, body } = await page(`limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(response.status).toBe(200);
      seen.push(...body.items.map((event: { id: string }) => event.id));
      cursor = body.next;
    } while (cursor);
    const rows = await db().auditEvent.findMany({ where: { companyId: "audit-paged" } });
    expect(seen).toEqual(trailOrder(rows));

    const types = async (query: string) =>
      new Set((await page(query)).body.items.map((event: { type: string }) => event.type));
    expect(await types("kind=user.")).toEqual(new Set(["user.joined", "user.invited"]));
    expect(await types("kind=client.updated")).toEqual(new Set(["client.updated"]));
    const day = newest.toISOString().slice(0, 10);
    expect((await page(`from=${day}&to=${day}&limit=100`)).body.items).toHaveLength(30);
    const instant = new Date(newest.getTime() - 3).toISOString();
    // Four to a millisecond: from the 4th millisecond on, 16 events; before it, the other 14.
    expect((await page(`from=${instant}&limit=100`)).body.items).toHaveLength(16);
    expect((await page(`to=${instant}&limit=100`)).body.items).toHaveLength(14);

    const first = await page("limit=5");
    const next = encodeURIComponent(first.body.next);
    expect((await page(`limit=5&kind=user.&cursor=${next}`)).response.status).toBe(400);
    expect((await manage("GET", `/audit-events?cursor=${next}`, { token: reader })).response.status).toBe(400);
    expect(
      (await manage("GET", `/audit-events/export?companyId=audit-paged&cursor=${next}`, { token: reader })).response
        .status,
    ).toBe(400);

    for (const query of [
      "kind=user",
      "kind=nonsense.event",
      "kind=.",
      "companyId=not%20an%20id",
      `actor=${"a".repeat(201)}`,
      "from=2026-02-30",
      "from=yesterday",
      "to=2026-05-31T25:00:00Z",
      "from=2026-05-02&to=2026-05-01",
      "limit=1001",
      "limit=0",
      "colour=red",
      "kind=user.&kind=client.",
    ]) {
      const { response, body } = await manage("GET", `/audit-events?${query}`, { token: reader });
      expect([response.status, body.type], query).toEqual([400, "urn:optigate:problem:bad-request"]);
      const exported = await manage("GET", `/audit-events/export?${query.replace("1001", "10001")}`, {
        token: reader,
      });
      expect(exported.response.status, `export ${query}`).toBe(400);
    }
    const nobody = await manage("GET", "/audit-events?actor=nobody@demo.test", { token: reader });
    expect([nobody.response.status, nobody.body.items]).toEqual([200, []]);
  });

  it(`exports ${BULK.toLocaleString("en")} events as JSON Lines in order, following Link to the end`, async () => {
    const newest = new Date(Date.now() - HOUR);
    const everyTenth = (index: number) => (index % 10 === 0 ? "client.updated" : "user.invited");
    await insertEvents(BULK_COMPANY, BULK, newest, everyTenth);

    const all = await exportAll(`/audit-events/export?companyId=${BULK_COMPANY}`);
    expect(all.responses).toBe(BULK / 10_000);
    expect(all.events).toHaveLength(BULK);
    expect(new Set(all.events.map((event) => event.id)).size).toBe(BULK);
    expect(all.events.every((event) => event.company_id === BULK_COMPANY)).toBe(true);
    const positions = all.events.map((event) => ({ id: event.id, occurredAt: new Date(event.occurred_at) }));
    expect(all.events.map((event) => event.id)).toEqual(trailOrder(positions));
    const clients = await exportAll(`/audit-events/export?companyId=${BULK_COMPANY}&kind=client.&limit=2500`);
    expect(clients.events).toHaveLength(BULK / 10);
    expect(clients.responses).toBe(BULK / 10 / 2500);
    expect(clients.events.every((event) => event.type === "client.updated")).toBe(true);

    // The Link's cursor holds the filters it was made for: with others it is refused.
    const { response } = await manage("GET", `/audit-events/export?companyId=${BULK_COMPANY}&limit=10`, {
      token: reader,
    });
    const link = /<([^>]+)>/.exec(response.headers.get("link")!)![1];
    const cursor = new URL(link).searchParams.get("cursor")!;
    expect(new URL(link).searchParams.get("limit")).toBe("10");
    for (const other of [`kind=user.&companyId=${BULK_COMPANY}`, "companyId=audit-paged", ""]) {
      const mixed = await manage("GET", `/audit-events/export?${other}&cursor=${encodeURIComponent(cursor)}`, {
        token: reader,
      });
      expect(mixed.response.status, other).toBe(400);
    }
    const empty = await manage("GET", "/audit-events/export?companyId=nobody-at-all", { token: reader });
    expect([empty.response.status, empty.body, empty.response.headers.get("link")]).toEqual([200, [], null]);
  }, 120_000);

  it("purges events older than AUDIT_RETENTION_DAYS on the cron route and keeps the recent ones", async () => {
    const now = Date.now();
    await insertEvents("audit-retention-old", 2500, new Date(now - 401 * DAY));
    await insertEvents("audit-retention-kept", 10, new Date(now - 399 * DAY));
    const config = { ...loadConfig(), cronSecret: "cron-secret-0123456789-abcdef", auditRetentionDays: 400 };
    const purge = () =>
      handleCronPurge(
        new Request(`${ISSUER}/api/cron/purge`, {
          method: "POST",
          headers: { authorization: `Bearer ${config.cronSecret}` },
        }),
        serviceContextFor(stores(), config),
      );
    const answer = await purge();
    expect(answer.status).toBe(200);
    expect((await answer.json()).purged.auditEvents).toBeGreaterThanOrEqual(2500);
    expect(await db().auditEvent.count({ where: { companyId: "audit-retention-old" } })).toBe(0);
    expect(await db().auditEvent.count({ where: { companyId: "audit-retention-kept" } })).toBe(10);
    expect(await db().auditEvent.count({ where: { companyId: BULK_COMPANY } })).toBe(BULK);
    expect((await (await purge()).json()).purged.auditEvents).toBe(0);

    // A shorter retention takes the events it no longer covers.
    const shorter = { ...config, auditRetentionDays: 30 };
    const again = await handleCronPurge(
      new Request(`${ISSUER}/api/cron/purge`, {
        method: "POST",
        headers: { authorization: `Bearer ${config.cronSecret}` },
      }),
      serviceContextFor(stores(), shorter),
    );
    expect((await again.json()).purged.auditEvents).toBeGreaterThanOrEqual(10);
    expect(await db().auditEvent.count({ where: { companyId: "audit-retention-kept" } })).toBe(0);
  });
});
