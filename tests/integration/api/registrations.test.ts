/**
 * /v2/supplierregistrations: the lifecycle driven by optician and supplier, optimistic concurrency, bad input that
 * writes nothing, the audit trail, backend clients with an operator-given company, and the catalog services
 * following the active registration.
 */
import { prismaStores } from "@/lib/store/stores";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { ISSUER, formRequest, useOAuthService } from "../../helpers/oauth-service";
import { api, clientToken, userToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const RW = "platform.supplierreg.readwrite";
const db = () => service().database.db;
let opticianToken: string;
let lensToken: string;
let framesToken: string;

async function ticketStatus(query: string): Promise<number> {
  const { POST } = await import("@/app/services/login/SilentLogin/route");
  const { ticket } = await (
    await POST(
      formRequest("/services/login/SilentLogin", { username: "optician@demo.test", password: "Optician#2026" }),
    )
  ).json();
  const { GET } = await import("@/app/getSubCatalog.ashx/route");
  return (await GET(new Request(`${ISSUER}/getSubCatalog.ashx?${query}&ticket=${ticket}`))).status;
}
const framesDownload = () => ticketStatus("companyID=demo-company-frames&catalogResourceKey=FWG-DE&revision=1");

const patch = (id: string, body: unknown, token: string, etag?: string) =>
  api("PATCH", `/v2/supplierregistrations/${id}`, { token, body, headers: etag ? { "if-match": etag } : {} });

beforeAll(async () => {
  opticianToken = await userToken("optician@demo.test", "Optician#2026", RW);
  lensToken = await userToken("supplier@demo.test", "Supplier#2026", RW);
  // Frame Works has no users: a backend client the operator gave that company acts for it.
  await registerClient(
    prismaStores(db()),
    parseClientMetadata(
      {
        client_id: "frames-erp",
        client_name: "Frame Works ERP",
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: "client_secret_basic",
        scope: RW,
        company_id: "demo-company-frames",
      },
      "platform",
    ),
    { value: "frames-erp-secret" },
  );
  framesToken = await clientToken("frames-erp", "frames-erp-secret", RW);
});

describe(`supplier registrations through the API on ${testProvider()}`, () => {
  it("lets an optician request, the supplier approve, and the catalog services follow; withdrawing ends it", async () => {
    expect(decodeJwt(framesToken)).toMatchObject({ sub: "frames-erp", company_id: "demo-company-frames" });
    expect(await framesDownload()).toBe(401);
    const created = await api("POST", "/v2/supplierregistrations", {
      token: opticianToken,
      body: { supplierId: "FWG", clientId: "K-7781", catalogs: ["catalog.xml"] },
    });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get("location")).toBe(`${ISSUER}/v2/supplierregistrations/${created.body.id}`);
    expect(created.body).toMatchObject({
      opticianCompanyId: "demo-company-optician",
      opticianName: "Augenoptik Demo GmbH",
      supplierId: "FWG",
      supplierName: "Frame Works GmbH",
      clientId: "K-7781",
      status: "requested",
      customerGroups: [],
      subscriptions: [{ catalogId: "catalog.xml", status: "Subscribed" }],
    });
    const id = created.body.id as string;
    expect(await framesDownload()).toBe(401); // requested is no customer link yet

    const atSupplier = await api("GET", "/v2/supplierregistrations?status=requested", { token: framesToken });
    expect(atSupplier.body.items.map((r: any) => r.id)).toEqual([id]);
    expect(
      (await api("GET", "/v2/supplierregistrations", { token: lensToken })).body.items.map((r: any) => r.supplierId),
    ).toEqual(["DLAG", "DLAG"]); // the demo's active customer and pending request, not Frame Works' new one
    const read = await api("GET", `/v2/supplierregistrations/${id}`, { token: framesToken });
    const etag = read.response.headers.get("etag")!;
    expect(etag).toBe(created.response.headers.get("etag"));

    const approved = await patch(id, { status: "active", customerGroups: [3] }, framesToken, etag);
    expect(approved.response.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "active", customerGroups: [3] });
    expect(approved.response.headers.get("etag")).not.toBe(etag);
    expect(await framesDownload()).toBe(200);

    const withdrawn = await patch(id, { status: "withdrawn" }, opticianToken, approved.response.headers.get("etag")!);
    expect(withdrawn.body.status).toBe("withdrawn");
    expect(await framesDownload()).toBe(401);
    const history = await db().supplierRegistrationChange.findMany({
      where: { registrationId: id },
      orderBy: { changedAt: "asc" },
    });
    expect(history.map((h) => [h.status, h.changedBy])).toEqual([
      ["requested", expect.any(String)],
      ["active", "frames-erp"],
      ["withdrawn", expect.any(String)],
    ]);
    const audit = await db().auditEvent.findMany({ where: { type: { startsWith: "registration." } } });
    const events = audit
      .filter((event) => JSON.parse(event.details).registrationId === id)
      .map((event) => [event.type, event.clientId, JSON.parse(event.details).to ?? null]);
    expect(events.sort()).toEqual([
      ["registration.changed", "demo-web", "withdrawn"],
      ["registration.changed", "frames-erp", "active"],
      ["registration.requested", "demo-web", null],
    ]);
    // A closed registration leaves room for a new one.
    expect(
      (
        await api("POST", "/v2/supplierregistrations", {
          token: opticianToken,
          body: { supplierId: "FWG", clientId: "K-7781" },
        })
      ).response.status,
    ).toBe(201);
  });

  it("refuses a second open registration at the same supplier with 409, also when two arrive at once", async () => {
    const duplicate = await api("POST", "/v2/supplierregistrations", {
      token: opticianToken,
      body: { supplierId: "DLAG", clientId: "100234" },
    });
    expect(duplicate.response.status).toBe(409);
    const other = await db().company.create({ data: { name: "Race Optik", kind: "eye_care_professional" } });
    await db().user.update({ where: { email: "optician@demo.test" }, data: { companyId: other.id } });
    try {
      const both = await Promise.all(
        [0, 1].map(() =>
          api("POST", "/v2/supplierregistrations", {
            token: opticianToken,
            body: { supplierId: "DLAG", clientId: "555" },
          }),
        ),
      );
      expect(both.map((r) => r.response.status).sort()).toEqual([201, 409]);
      expect(await db().supplierRegistration.count({ where: { opticianCompanyId: other.id } })).toBe(1);
    } finally {
      await db().user.update({ where: { email: "optician@demo.test" }, data: { companyId: "demo-company-optician" } });
    }
  });

  it("needs If-Match (428), refuses a stale one (412), and lets exactly one of two concurrent changes win", async () => {
    // The request the first test left open at Frame Works.
    const id = (await api("GET", "/v2/supplierregistrations?status=requested", { token: framesToken })).body.items[0]
      .id as string;
    const current = (await api("GET", `/v2/supplierregistrations/${id}`, { token: framesToken })).response.headers.get(
      "etag",
    )!;
    expect((await patch(id, { status: "rejected" }, framesToken)).response.status).toBe(428);
    expect((await patch(id, { status: "rejected" }, framesToken, '"v999"')).response.status).toBe(412);
    expect((await patch(id, { status: "rejected" }, framesToken, `W/${current}`)).response.status).toBe(412);
    const race = await Promise.all([
      patch(id, { status: "active", customerGroups: [1] }, framesToken, current),
      patch(id, { status: "rejected" }, framesToken, current),
    ]);
    expect(race.map((r) => r.response.status).sort()).toEqual([200, 412]);
    const after = (await api("GET", `/v2/supplierregistrations/${id}`, { token: framesToken })).body;
    expect(["active", "rejected"]).toContain(after.status);
    expect(await db().supplierRegistrationChange.count({ where: { registrationId: id } })).toBe(2);
    // A list matches when it names the current version (RFC 9110 §13.1.1); `*` matches whatever version is current.
    const now = (await api("GET", `/v2/supplierregistrations/${id}`, { token: framesToken })).response.headers.get(
      "etag",
    )!;
    expect((await patch(id, { status: "withdrawn" }, framesToken, '"v998", "v999"')).response.status).toBe(412);
    if (after.status === "active")
      expect((await patch(id, { status: "withdrawn" }, framesToken, `"v998", ${now}`)).body.status).toBe("withdrawn");
    expect((await patch(id, { status: "withdrawn" }, framesToken, "*")).response.status).toBe(422);
  });

  it("keeps each side to its own changes: 403 for the other side's, 422 for a change the status does not allow", async () => {
    const lens = (await api("GET", "/v2/supplierregistrations?status=active", { token: lensToken })).body.items[0];
    const etag = (await api("GET", `/v2/supplierregistrations/${lens.id}`, { token: lensToken })).response.headers.get(
      "etag",
    )!;
    expect((await patch(lens.id, { status: "active", customerGroups: [9] }, opticianToken, etag)).response.status).toBe(
      403,
    );
    expect(
      (await patch(lens.id, { subscriptions: [{ catalogId: "catalog.xml", status: "Unsubscribed" }] }, lensToken, etag))
        .response.status,
    ).toBe(403);
    expect((await patch(lens.id, { status: "rejected" }, lensToken, etag)).response.status).toBe(422);
    expect((await patch(lens.id, { status: "withdrawn" }, framesToken, etag)).response.status).toBe(404);
    expect(
      (await api("POST", "/v2/supplierregistrations", { token: lensToken, body: { supplierId: "FWG", clientId: "1" } }))
        .response.status,
    ).toBe(403);
    // The optician changes subscriptions of an active registration.
    const changed = await patch(
      lens.id,
      {
        subscriptions: [
          { catalogId: "catalog_AT.xml", status: "Subscribed" },
          { catalogId: "catalog.xml", status: "Unsubscribed" },
        ],
      },
      opticianToken,
      etag,
    );
    expect(changed.body.subscriptions).toEqual([
      { catalogId: "catalog.xml", status: "Unsubscribed" },
      { catalogId: "catalog_AT.xml", status: "Subscribed" },
    ]);
    await patch(
      lens.id,
      { subscriptions: [{ catalogId: "catalog.xml", status: "Subscribed" }] },
      opticianToken,
      changed.response.headers.get("etag")!,
    );
    // A client acting for no company has no registrations.
    const companyless = await api("GET", "/v2/supplierregistrations", {
      token: await clientToken("demo-backend", "demo-backend-secret", RW),
    });
    expect(companyless.response.status).toBe(403);
    expect(companyless.body.type).toBe("urn:optigate:problem:forbidden");
  });

  it("answers bad input with a 4xx problem naming the problem, and writes nothing", async () => {
    const counts = async () => [
      await db().supplierRegistration.count(),
      await db().auditEvent.count(),
      await db().catalogSubscription.count(),
    ];
    const before = await counts();
    const lens = (await api("GET", "/v2/supplierregistrations?status=active", { token: lensToken })).body.items[0];
    const etag = (await api("GET", `/v2/supplierregistrations/${lens.id}`, { token: lensToken })).response.headers.get(
      "etag",
    )!;
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      api("POST", "/v2/supplierregistrations", { token: opticianToken, body, headers });
    const cases: [Promise<{ response: Response; body: any }>, number, RegExp][] = [
      [post("{not json"), 400, /not valid JSON/],
      [post("[1,2]"), 400, /JSON object/],
      [post({ supplierId: "FWG", clientId: "1" }, { "content-type": "text/plain" }), 415, /application\/json/],
      [post({ supplierId: "FWG", clientId: "1", extra: true }), 400, /unknown member "extra"/],
      [post({ supplierId: 7, clientId: "1" }), 400, /"supplierId" as a string/],
      [post({ supplierId: "FWG", clientId: "x".repeat(41) }), 422, /clientId/],
      // Noncharacters, a right-to-left override, C1 controls, zero-width spaces and a lone surrogate: no XML may carry them.
      ...["K\uffffX\ufffe", "\u202eK-1", "K\u0085", "K\u200b1", "a\ud800b"].map(
        (clientId) =>
          [post({ supplierId: "FWG", clientId }), 422, /printable characters/] as [
            Promise<{ response: Response; body: any }>,
            number,
            RegExp,
          ],
      ),
      [post({ supplierId: "NOBODY", clientId: "1" }), 422, /no supplier "NOBODY"/],
      [post({ supplierId: "FWG", clientId: "1", catalogs: ["nothing.xml"] }), 422, /no catalog "nothing.xml"/],
      [post({ supplierId: "FWG", clientId: "1", catalogs: ["catalog.xml", "catalog.xml"] }), 422, /named twice/],
      [
        post(JSON.stringify({ supplierId: "FWG", clientId: "1", pad: "x".repeat(70 * 1024) })),
        413,
        /at most 65536 bytes/,
      ],
      [patch("no-such-id", { status: "withdrawn" }, opticianToken, etag), 404, /no registration/],
      [
        patch(lens.id, { status: "active", customerGroups: [0] }, lensToken, etag),
        422,
        /Only a requested registration/,
      ],
      [patch(lens.id, { status: "paused" }, opticianToken, etag), 422, /active, rejected or withdrawn/],
      [patch(lens.id, { status: "withdrawn", subscriptions: [] }, opticianToken, etag), 422, /one at a time/],
      [
        patch(lens.id, { subscriptions: [{ catalogId: "catalog.xml", status: "Maybe" }] }, opticianToken, etag),
        422,
        /Subscribed or Unsubscribed/,
      ],
      [
        patch(lens.id, { subscriptions: [{ catalogId: "catalog.xml" }] }, opticianToken, etag),
        400,
        /"status" as a string/,
      ],
      [patch(lens.id, {}, opticianToken, etag), 422, /names no change/],
      [api("GET", "/v2/supplierregistrations?limit=100000", { token: opticianToken }), 400, /limit/],
      [api("GET", "/v2/supplierregistrations?status=open", { token: opticianToken }), 400, /status must be/],
    ];
    for (const [pending, status, detail] of cases) {
      const { response, body } = await pending;
      expect(response.status, body?.detail).toBe(status);
      expect(body.detail).toMatch(detail);
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses customer groups out of range from the supplier, writing nothing", async () => {
    const request = await api("POST", "/v2/supplierregistrations", {
      token: opticianToken,
      body: { supplierId: "FWG", clientId: "K-range" },
    });
    expect(request.response.status).toBe(201);
    const id = request.body.id as string;
    const etag = (await api("GET", `/v2/supplierregistrations/${id}`, { token: framesToken })).response.headers.get(
      "etag",
    )!;
    for (const groups of [[0], [1_000_000_000], [1.5], [2, 2]]) {
      const { response, body } = await patch(id, { status: "active", customerGroups: groups }, framesToken, etag);
      expect(response.status, JSON.stringify(groups)).toBe(422);
      expect(body.detail).toMatch(/customerGroups/);
    }
    expect(
      (await api("GET", `/v2/supplierregistrations/${id}`, { token: framesToken })).response.headers.get("etag"),
    ).toBe(etag);
  });

  it("lets only the operator give a backend client a company, and only a company that exists", async () => {
    expect(() =>
      parseClientMetadata(
        { client_name: "x", redirect_uris: ["https://a.example/cb"], company_id: "demo-company-frames" },
        "platform",
      ),
    ).toThrow(/backend clients only/);
    const unknown = parseClientMetadata(
      {
        client_name: "x",
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: "client_secret_basic",
        scope: RW,
        company_id: "no-such-company",
      },
      "platform",
    );
    await expect(registerClient(prismaStores(db()), unknown)).rejects.toThrow(/is no company/);
  });
});
