/**
 * A management client with manage.clients.write changes only clients no more powerful than itself
 * (lib/rights/operator-clients.ts): it registers, changes, removes and gives or disables secrets of clients whose
 * manage.* scopes its own token holds (a company scope counting as held with its platform twin), and nothing else,
 * so manage.clients.write alone mints no client with manage.keys.write or manage.audit.read and takes no broader
 * client's secret. Each refusal is 403 and writes nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { prismaStores } from "@/lib/store/stores";
import { useOAuthService } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { clientToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());

const backend = (clientId: string, scope: string, more: Record<string, unknown> = {}) => ({
  client_id: clientId,
  grant_types: ["client_credentials"],
  scope,
  ...more,
});

let clientsOnly: string;
let keysReader: string;
let broader: { clientId: string; token: string };
let narrow: { clientId: string; token: string };

beforeAll(async () => {
  clientsOnly = (await managementToken(stores(), ["manage.clients.read", "manage.clients.write"])).token;
  const keys = ["manage.clients.read", "manage.clients.write", "manage.keys.read", "manage.users.read"];
  keysReader = (await managementToken(stores(), keys)).token;
  broader = await managementToken(stores(), ["manage.keys.write", "manage.audit.read"]);
  narrow = await managementToken(stores(), ["manage.keys.read"]);
});

/** The clients and their secrets, as a refused call must leave them (a token request notes a secret's last use). */
const written = async () => ({
  clients: await db().client.findMany({ orderBy: { id: "asc" } }),
  secrets: (await db().clientSecret.findMany({ orderBy: { id: "asc" } })).map(({ lastUsedAt: _used, ...kept }) => kept),
});

const expectForbidden = (call: { response: Response; body: { type: string } }, what: string) =>
  expect([call.response.status, call.body.type], what).toEqual([403, "urn:optigate:problem:forbidden"]);

describe(`a management client's reach over clients on ${testProvider()}`, () => {
  it("registers no client with management scopes beyond its token's, and those within them", async () => {
    const before = await written();
    const escalations: [string, string, unknown][] = [
      [clientsOnly, "every platform scope", backend("erp-escalated", "manage.keys.write manage.audit.read")],
      [clientsOnly, "a read scope it lacks", backend("erp-escalated", "manage.keys.read")],
      [keysReader, "write beside read", backend("erp-escalated", "manage.keys.read manage.keys.write")],
      [
        clientsOnly,
        "a company's scope without its platform twin",
        backend("erp-escalated", "manage.company.users.read", { company_id: "demo-company-optician" }),
      ],
    ];
    for (const [token, what, body] of escalations)
      expectForbidden(await manage("POST", "/clients", { token, body }), what);
    expect(await written()).toEqual(before);

    // Bad metadata is still told as such: the scopes are weighed once the registration is valid.
    const unknown = await manage("POST", "/clients", {
      token: clientsOnly,
      body: backend("erp-x", "manage.everything"),
    });
    expect(unknown.response.status).toBe(422);

    const within = await manage("POST", "/clients", {
      token: keysReader,
      body: backend("erp-keys", "manage.keys.read"),
    });
    expect(within.response.status).toBe(201);
    await clientToken("erp-keys", within.body.client_secret, "manage.keys.read");
    const company = backend("erp-company", "manage.company.users.read", { company_id: "demo-company-optician" });
    expect((await manage("POST", "/clients", { token: keysReader, body: company })).response.status).toBe(201);
    // Scopes other than the management API's are the operator's to weigh as before.
    const api = await manage("POST", "/clients", {
      token: clientsOnly,
      body: backend("erp-api", "platform.catalogs.read"),
    });
    expect(api.response.status).toBe(201);
  });

  it("leaves a broader client's metadata, secrets and registration alone", async () => {
    const made = await manage("POST", `/clients/${broader.clientId}/secrets`, { token: keysReader, body: {} });
    expect(made.response.status).toBe(403);
    const read = await manage("GET", `/clients/${broader.clientId}`, { token: keysReader });
    const [secret] = read.body.secrets as { id: string }[];
    const before = await written();
    const calls: [Parameters<typeof manage>[0], string, object?][] = [
      ["POST", `/clients/${broader.clientId}/secrets`, { body: {} }],
      ["POST", `/clients/${broader.clientId}/secrets/${secret.id}/expiry`, { body: { expires_at: "2099-12-31" } }],
      ["POST", `/clients/${broader.clientId}/secrets/${secret.id}/disable`],
      [
        "PUT",
        `/clients/${broader.clientId}`,
        {
          body: backend(broader.clientId, "manage.keys.read"),
          headers: { "if-match": read.response.headers.get("etag")! },
        },
      ],
      ["DELETE", `/clients/${broader.clientId}`],
    ];
    for (const [method, path, options] of calls)
      expectForbidden(await manage(method, path, { token: keysReader, ...options }), `${method} ${path}`);

    // Nor may a narrow client be given broader scopes.
    const narrowRead = await manage("GET", `/clients/${narrow.clientId}`, { token: keysReader });
    const widened = await manage("PUT", `/clients/${narrow.clientId}`, {
      token: keysReader,
      body: backend(narrow.clientId, "manage.keys.read manage.audit.read"),
      headers: { "if-match": narrowRead.response.headers.get("etag")! },
    });
    expectForbidden(widened, "PUT widening a narrow client");
    expect(await written()).toEqual(before);
    await clientToken(broader.clientId, `${broader.clientId}-secret`, "manage.keys.write");
  });

  it("looks after a client within its own scopes: secrets, metadata, removal", async () => {
    const secret = await manage("POST", `/clients/${narrow.clientId}/secrets`, { token: keysReader, body: {} });
    expect(secret.response.status).toBe(201);
    await clientToken(narrow.clientId, secret.body.client_secret, "manage.keys.read");
    const path = `/clients/${narrow.clientId}/secrets/${secret.body.secret_id}`;
    expect((await manage("POST", `${path}/disable`, { token: keysReader })).response.status).toBe(200);
    const read = await manage("GET", `/clients/${narrow.clientId}`, { token: keysReader });
    const renamed = await manage("PUT", `/clients/${narrow.clientId}`, {
      token: keysReader,
      body: backend(narrow.clientId, "manage.keys.read", { client_name: "Key watcher" }),
      headers: { "if-match": read.response.headers.get("etag")! },
    });
    expect(renamed.response.status).toBe(200);
    expect((await manage("DELETE", `/clients/${narrow.clientId}`, { token: keysReader })).response.status).toBe(204);
  });
});
