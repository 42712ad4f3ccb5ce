/**
 * /manage/v1/keys through the real route handler and database: the keys with their states and never a private part,
 * a rotation that the JWKS shows at once, and retiring a superseded key now: it leaves the JWKS and the tokens it
 * signed stop verifying, while the active key cannot be retired. The CLI's `keys retire` goes the same way. Scopes,
 * company clients refused on every route, bad input.
 */
import { decodeProtectedHeader } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { KEY_ROUTES } from "@/lib/api/manage/key-routes";
import { COMPANY_MANAGE_SCOPES } from "@/lib/oauth/scopes";
import { AccessDenied, type ManagementClient } from "@/lib/rights/actor";
import { signingKeysFor } from "@/lib/rights/operator-keys";
import { getServiceContext } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { expectEveryRouteRefused } from "../../helpers/manage-refusals";
import { runAdmin } from "../../helpers/admin-cli";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const stores = () => prismaStores(service().database.db);
let reader: string;
let writer: string;

async function publishedKids(): Promise<string[]> {
  const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
  const response = await GET(new Request("http://localhost:3000/.well-known/openid-configuration/jwks"));
  return ((await response.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
}

const keysOf = async (token = reader) =>
  (await manage("GET", "/keys", { token })).body.items as { kid: string; alg: string; state: string }[];

beforeAll(async () => {
  reader = (await managementToken(stores(), ["manage.keys.read"])).token;
  writer = (await managementToken(stores(), ["manage.keys.read", "manage.keys.write"])).token;
});

describe(`/manage/v1/keys on ${testProvider()}`, () => {
  it("refuses company clients and other scopes on every route, and the rights check refuses a company too", async () => {
    const company = await managementToken(stores(), COMPANY_MANAGE_SCOPES, "demo-company-optician");
    await expectEveryRouteRefused(KEY_ROUTES, company.token);
    await expectEveryRouteRefused(KEY_ROUTES, (await managementToken(stores(), ["manage.clients.read"])).token);
    expect((await manage("POST", "/keys/rotate", { token: reader })).response.status).toBe(403);
    // Whatever the router lets through, a company's client never has the platform's rights.
    const companyActor: ManagementClient = {
      kind: "manager",
      context: getServiceContext(),
      clientId: company.clientId,
      scopes: new Set(["manage.keys.read"]),
      company: {
        id: "demo-company-optician",
        name: "x",
        kind: "eye_care_professional",
        supplierId: null,
        requireSecondFactor: false,
      },
    };
    await expect(signingKeysFor(companyActor)).rejects.toBeInstanceOf(AccessDenied);
  });

  it("lists every key with its state and dates, never a private part", async () => {
    const { response, body } = await manage("GET", "/keys", { token: reader });
    expect(response.status).toBe(200);
    const active = body.items.filter((key: { state: string }) => key.state === "active");
    expect(active.map((key: { alg: string }) => key.alg).sort()).toEqual(["ES256", "PS256", "RS256"]);
    expect(active[0]).toMatchObject({ superseded_at: null, retired_at: null });
    expect(JSON.stringify(body)).not.toMatch(/"d"|private|pkcs8/i);
    expect(new Set(await publishedKids())).toEqual(new Set(active.map((key: { kid: string }) => key.kid)));
  });

  it("rotates one algorithm or all, and the JWKS shows the new keys beside the old ones at once", async () => {
    const before = (await keysOf()).filter((key) => key.state === "active");
    const es = before.find((key) => key.alg === "ES256")!;
    const one = await manage("POST", "/keys/rotate", { token: writer, body: { alg: "ES256" } });
    expect(one.response.status).toBe(200);
    expect(one.body.items).toEqual([{ alg: "ES256", kid: expect.any(String), superseded: [es.kid] }]);
    expect(await publishedKids()).toEqual(expect.arrayContaining([es.kid, one.body.items[0].kid]));
    expect((await keysOf()).find((key) => key.kid === es.kid)!.state).toBe("published");

    const all = await manage("POST", "/keys/rotate", { token: writer });
    expect(all.body.items.map((item: { alg: string }) => item.alg)).toEqual(["RS256", "ES256", "PS256"]);
    const kids = await publishedKids();
    for (const item of all.body.items) expect(kids).toContain(item.kid);
  });

  it("retires a superseded key now: out of the JWKS, its tokens refused; never the active key", async () => {
    // A token signed now, by the active key of the access tokens' algorithm.
    const token = (await managementToken(stores(), ["manage.keys.read"])).token;
    const { kid, alg } = decodeProtectedHeader(token) as { kid: string; alg: string };
    expect((await manage("GET", "/keys", { token })).response.status).toBe(200);

    const active = await manage("POST", `/keys/${kid}/retire`, { token: writer });
    expect(active.response.status).toBe(409);
    expect(active.body.detail).toMatch(/active key .* rotate first/);

    await manage("POST", "/keys/rotate", { token: writer, body: { alg } });
    expect((await manage("GET", "/keys", { token })).response.status).toBe(200); // still published: still verifies
    const retired = await manage("POST", `/keys/${kid}/retire`, { token: writer });
    expect(retired.response.status).toBe(200);
    expect(retired.body).toMatchObject({ kid, alg, state: "retired" });
    expect(await publishedKids()).not.toContain(kid);
    expect((await manage("GET", "/keys", { token })).response.status).toBe(401);
    expect((await manage("POST", `/keys/${kid}/retire`, { token: writer })).response.status).toBe(409);
    expect((await manage("POST", "/keys/nobody-here/retire", { token: writer })).response.status).toBe(404);

    const events = await service().database.db.auditEvent.findMany({ where: { type: "signing_key.retired" } });
    expect(events.map((event) => JSON.parse(event.details).kid)).toContain(kid);
  });

  it("retires through the CLI's `keys retire` the same way", async () => {
    // A PS256 key signs ID tokens only: this file's access tokens keep working.
    const old = (await keysOf()).find((key) => key.state === "published" && key.alg === "PS256")!;
    const cli = await runAdmin(service().database.db, ["keys", "retire", old.kid]);
    expect(cli.code, cli.stderr).toBe(0);
    expect((await keysOf()).find((key) => key.kid === old.kid)!.state).toBe("retired");
    const active = (await keysOf()).find((key) => key.state === "active")!;
    const refused = await runAdmin(service().database.db, ["keys", "retire", active.kid]);
    expect(refused).toMatchObject({ code: 1, stderrLines: [expect.stringMatching(/is the active key/)] });
    const rotate = await runAdmin(service().database.db, ["keys", "rotate", "HS256"]);
    expect(rotate.code).toBe(2);
  });

  it("answers bad input with a problem and changes nothing", async () => {
    const before = await keysOf();
    const cases: [Parameters<typeof manage>[2], number][] = [
      [{ token: writer, body: { alg: "HS256" } }, 400],
      [{ token: writer, body: { colour: "red" } }, 400],
      [{ token: writer, body: "{", headers: {} }, 400],
      [{ token: writer, body: "alg=RS256", headers: { "content-type": "text/plain" } }, 415],
    ];
    for (const [options, status] of cases)
      expect((await manage("POST", "/keys/rotate", options)).response.status, JSON.stringify(options)).toBe(status);
    expect((await manage("GET", "/keys?limit=2", { token: reader })).response.status).toBe(400);
    expect(await keysOf()).toEqual(before);
  });
});
