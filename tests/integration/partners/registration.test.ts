/**
 * Software vendors' applications by API: `partners token|revoke|scopes`, RFC 7591 registration with an
 * initial access token (pending until the operator approves it; the same checks as `clients add`, and the vendor's
 * rules), RFC 7592 read, change and delete with the registration access token, `clients approve|reject`, and the
 * approved version that keeps working while a change waits.
 */
import { describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { hashToken } from "@/lib/crypto/tokens";
import { insertPendingClient } from "@/lib/store/partner-store";
import { runAdmin } from "../../helpers/admin-cli";
import {
  basic,
  call,
  formRequest,
  ISSUER,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const VENDOR = "demo-company-vendor";

async function initialToken(...options: string[]): Promise<string> {
  const issued = await admin("partners", "token", VENDOR, ...options);
  expect(issued.code, issued.stderr).toBe(0);
  return JSON.parse(issued.stdout).initial_access_token;
}

const json = (body: unknown) => JSON.stringify(body);
function register(token: string | undefined, body: unknown, type = "application/json") {
  const headers: Record<string, string> = { "content-type": type };
  if (token) headers.authorization = `Bearer ${token}`;
  return call("register", new Request(`${ISSUER}/connect/register`, { method: "POST", headers, body: json(body) }));
}
function manage(method: "GET" | "PUT" | "DELETE", uri: string, token: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body) headers["content-type"] = "application/json";
  return call("register", new Request(uri, { method, headers, body: body ? json(body) : undefined }));
}

let counter = 0;
const webApp = (overrides: Record<string, unknown> = {}) => ({
  client_id: `partner-app-${++counter}`,
  client_name: "Praxissoft Shop",
  "client_name#de": "Praxissoft Laden",
  redirect_uris: ["https://shop.praxissoft.example/callback"],
  scope: "openid profile email",
  ...overrides,
});

const authorizeAt = (clientId: string, redirectUri: string) =>
  new UserAgent().authorize({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid",
    state: "s",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  });

describe(`initial access tokens on ${testProvider()}`, () => {
  it("are issued to software vendors only, shown once, stored as a hash, 30 days unless said otherwise", async () => {
    const issued = await admin("partners", "token", VENDOR);
    const printed = JSON.parse(issued.stdout);
    expect(issued.stderr).toMatch(/shown only this once/);
    expect(Buffer.from(printed.initial_access_token, "base64url")).toHaveLength(32);
    const row = await db().initialAccessToken.findUniqueOrThrow({ where: { id: printed.id } });
    expect(row.tokenHash).toBe(hashToken(printed.initial_access_token));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(29.9 * 86_400_000);
    for (const [args, message] of [
      [["partners", "token", "demo-company-optician"], /no software vendor/],
      [["partners", "token", VENDOR, "--expires", "2020-01-01"], /within the next 365 days/],
      [["partners", "token", VENDOR, "--expires", "2099-01-01"], /within the next 365 days/],
      [["partners", "token", VENDOR, "--expires", "soon"], /ISO 8601/],
      [["partners", "scopes", VENDOR, "platform.everything"], /no platform scope/],
    ] as const) {
      const refused = await admin(...args);
      expect(refused.code, args.join(" ")).not.toBe(0);
      expect(refused.stderr).toMatch(message);
    }
  });

  it("opens registration only while current: missing, unknown, revoked and expired tokens get 401", async () => {
    const revoked = JSON.parse((await admin("partners", "token", VENDOR)).stdout);
    expect((await admin("partners", "revoke", revoked.id)).code).toBe(0);
    const expired = await initialToken();
    await db().initialAccessToken.updateMany({
      where: { tokenHash: hashToken(expired) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const before = await db().client.count({ where: { ownerCompanyId: VENDOR } });
    for (const token of [undefined, "unknown-token", revoked.initial_access_token, expired]) {
      const response = await register(token, webApp());
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
      expect(await response.json()).toEqual({ error: "invalid_token" });
    }
    expect(await db().client.count({ where: { ownerCompanyId: VENDOR } })).toBe(before);
  });
});

describe(`RFC 7591 and 7592 on ${testProvider()}`, () => {
  it("registers a pending application the protocol knows only as the vendor's sandbox until approval", async () => {
    const token = await initialToken();
    const metadata = webApp();
    const response = await register(token, metadata);
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const registered = await response.json();
    expect(registered).toMatchObject({
      client_id: metadata.client_id,
      status: "pending",
      registration_client_uri: `${ISSUER}/connect/register?client_id=${metadata.client_id}`,
      redirect_uris: metadata.redirect_uris,
    });
    expect(registered.registration_access_token).toMatch(/^[\w-]{43}$/);
    expect(registered.client_secret).toMatch(/^[\w-]{43}$/);
    // Pending, it is the vendor's sandbox (tests/integration/partners/sandbox.test.ts); without one, it is unknown.
    expect((await admin("partners", "sandbox", VENDOR, "off")).code).toBe(0);
    expect((await authorizeAt(metadata.client_id, metadata.redirect_uris[0])).status).toBe(400);
    expect((await admin("partners", "sandbox", VENDOR, "on")).code).toBe(0);

    expect((await admin("clients", "list")).stdout).toMatch(
      new RegExp(`${metadata.client_id}\\s+web\\s+\\S+\\s+pending\\s`),
    );
    expect(JSON.parse((await admin("clients", "show", metadata.client_id)).stdout)).toMatchObject({
      status: "pending",
      owner_company_id: VENDOR,
    });
    const approved = await admin("clients", "approve", metadata.client_id);
    expect(JSON.parse(approved.stdout)).toMatchObject({ client_id: metadata.client_id, status: "approved" });
    expect((await authorizeAt(metadata.client_id, metadata.redirect_uris[0])).headers.get("location")).toMatch(
      /^\/login\?/,
    );
    expect((await admin("clients", "approve", metadata.client_id)).stderr).toMatch(/no registration or change waiting/);
  });

  it("refuses what clients add refuses, and what only the operator may decide, writing nothing", async () => {
    const token = await initialToken();
    await admin("partners", "scopes", VENDOR, "platform.catalogs.read");
    const refusals: [unknown, string, RegExp][] = [
      [
        webApp({ scope: "openid platform.supplierreg.readwrite" }),
        "invalid_client_metadata",
        /not among those your company may ask for/,
      ],
      [webApp({ redirect_uris: ["http://shop.praxissoft.example/callback"] }), "invalid_redirect_uri", /http/],
      [webApp({ redirect_uris: ["https://shop.example/cb#fragment"] }), "invalid_redirect_uri", /fragment/],
      [webApp({ company_id: VENDOR }), "invalid_client_metadata", /company_id/],
      [webApp({ resource_server: true }), "invalid_client_metadata", /resource_server/],
      [webApp({ colour: "blue" }), "invalid_client_metadata", /colour/],
      [webApp({ redirect_uris: [] }), "invalid_client_metadata", /redirect_uris must list/],
      [[1, 2], "invalid_client_metadata", /JSON object/],
    ];
    for (const [metadata, code, message] of refusals) {
      const response = await register(token, metadata);
      expect(response.status, JSON.stringify(metadata)).toBe(400);
      const body = await response.json();
      expect(body.error).toBe(code);
      expect(body.error_description).toMatch(message);
    }
    expect((await register(token, webApp(), "text/plain")).status).toBe(400);
    const allowed = await register(token, webApp({ scope: "openid platform.catalogs.read" }));
    expect(allowed.status).toBe(201);
    const loopback = await register(token, webApp({ redirect_uris: ["http://localhost:8080/callback"] }));
    expect(loopback.status).toBe(201);
    expect(await db().client.count({ where: { ownerCompanyId: VENDOR, status: "pending" } })).toBeGreaterThanOrEqual(2);
  });

  it("gives a client id to one of two registrations racing for it", async () => {
    const token = await initialToken();
    const metadata = webApp();
    const responses = await Promise.all([register(token, metadata), register(token, metadata)]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 400]);
    const refused = await responses.find((response) => response.status === 400)!.json();
    expect(refused).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/taken/),
    });
    expect(await db().client.count({ where: { id: metadata.client_id } })).toBe(1);
  });

  it("refuses a client id shaped like a generated one, and a person's id, writing nothing", async () => {
    const token = await initialToken();
    const person = await db().user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } });
    for (const clientId of [person.id, "0b7c2f0e-3a51-4c7e-9a56-2f1d8e6b4c10"]) {
      const response = await register(token, webApp({ client_id: clientId, grant_types: ["client_credentials"] }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_client_metadata" });
      expect(await db().client.count({ where: { id: clientId } })).toBe(0);
    }
  });

  it("lets the registration access token read, change and delete its own application, and no other", async () => {
    const token = await initialToken();
    const first = await (await register(token, webApp())).json();
    const second = await (await register(token, webApp())).json();
    const read = await manage("GET", first.registration_client_uri, first.registration_access_token);
    expect(read.status).toBe(200);
    const readBody = await read.json();
    expect(readBody).toMatchObject({ client_id: first.client_id, status: "pending" });
    expect(readBody).not.toHaveProperty("registration_access_token");
    for (const method of ["GET", "DELETE"] as const)
      expect((await manage(method, first.registration_client_uri, second.registration_access_token)).status).toBe(401);
    expect((await manage("GET", first.registration_client_uri, token)).status).toBe(401);

    const change = { ...first, redirect_uris: ["https://shop.praxissoft.example/new-callback"] };
    const changed = await manage("PUT", first.registration_client_uri, first.registration_access_token, change);
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ status: "pending", redirect_uris: change.redirect_uris });
    const renamed = await manage("PUT", first.registration_client_uri, first.registration_access_token, {
      ...change,
      client_id: "another-id",
    });
    expect(await renamed.json()).toMatchObject({ error: "invalid_client_metadata" });

    const deleted = await manage("DELETE", first.registration_client_uri, first.registration_access_token);
    expect(deleted.status).toBe(204);
    expect(await db().client.count({ where: { id: first.client_id } })).toBe(0);
    expect((await manage("GET", first.registration_client_uri, first.registration_access_token)).status).toBe(401);
  });

  it("checks the token before the body, answers a second delete 401, and never a 5xx", async () => {
    const token = await initialToken();
    const registered = await (await register(token, webApp())).json();
    const other = await (await register(token, webApp())).json();
    const badBody = new Request(`${ISSUER}/connect/register`, {
      method: "POST",
      headers: { authorization: "Bearer unknown-token", "content-type": "application/json" },
      body: "{not json",
    });
    expect((await call("register", badBody)).status).toBe(401);
    const foreignPut = await manage("PUT", registered.registration_client_uri, other.registration_access_token, {
      ...registered,
      redirect_uris: ["https://attacker.example/callback"],
    });
    expect(foreignPut.status).toBe(401);
    expect((await db().client.findUniqueOrThrow({ where: { id: registered.client_id } })).redirectUris).not.toContain(
      "attacker.example",
    );
    const deletes = await Promise.all(
      [0, 1].map(() => manage("DELETE", registered.registration_client_uri, registered.registration_access_token)),
    );
    expect(deletes.map((response) => response.status).sort()).toEqual([204, 401]);
    expect(await db().auditEvent.count({ where: { clientId: registered.client_id, type: "client.removed" } })).toBe(1);
  });

  it("refuses the tokens of a deactivated vendor, and opens them again when it is activated", async () => {
    const token = await initialToken();
    const registered = await (await register(token, webApp())).json();
    expect((await admin("companies", "deactivate", VENDOR)).code).toBe(0);
    try {
      expect((await register(token, webApp())).status).toBe(401);
      expect(
        (await manage("GET", registered.registration_client_uri, registered.registration_access_token)).status,
      ).toBe(401);
    } finally {
      expect((await admin("companies", "activate", VENDOR)).code).toBe(0);
    }
    expect((await manage("GET", registered.registration_client_uri, registered.registration_access_token)).status).toBe(
      200,
    );
  });

  it("keeps an approved application public or confidential through its changes", async () => {
    const token = await initialToken();
    const created = await (await register(token, webApp())).json();
    expect((await admin("clients", "approve", created.client_id)).code).toBe(0);
    const change = {
      ...created,
      token_endpoint_auth_method: "none",
      allowed_cors_origins: ["https://shop.praxissoft.example"],
      refresh_token_policy: "rotate",
    };
    const refused = await manage("PUT", created.registration_client_uri, created.registration_access_token, change);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/cannot become public/),
    });
    const row = await db().client.findUniqueOrThrow({ where: { id: created.client_id } });
    expect([row.tokenEndpointAuthMethod, row.pendingMetadata]).toEqual(["client_secret_basic", null]);
  });

  it("gives a pending backend no token, even with a secret, until the operator approves it", async () => {
    const token = await initialToken();
    await admin("partners", "scopes", VENDOR, "platform.catalogs.read");
    const backend = {
      client_id: `partner-backend-${++counter}`,
      client_name: "Praxissoft Sync",
      grant_types: ["client_credentials"],
      scope: "platform.catalogs.read",
    };
    expect((await register(token, backend)).status).toBe(201);
    const added = await admin("clients", "secret", "add", backend.client_id);
    expect(added.code, added.stderr).toBe(0);
    const secret = JSON.parse(added.stdout).client_secret;
    const tokenRequest = () =>
      call(
        "token",
        formRequest(
          "/connect/token",
          { grant_type: "client_credentials", scope: "platform.catalogs.read" },
          { authorization: basic(backend.client_id, secret) },
        ),
      );
    const refused = await tokenRequest();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "invalid_client" });
    await admin("clients", "approve", backend.client_id);
    expect((await tokenRequest()).status).toBe(200);
  });

  it("keeps an approved version working while a change waits, until the operator approves or rejects it", async () => {
    const token = await initialToken();
    const registered = await (await register(token, webApp())).json();
    await admin("clients", "approve", registered.client_id);
    const secret = JSON.parse((await admin("clients", "secret", "add", registered.client_id)).stdout).client_secret;
    const oldUri = registered.redirect_uris[0];
    const newUri = "https://shop.praxissoft.example/v2/callback";
    const change = { ...registered, redirect_uris: [newUri] };
    const waiting = await manage(
      "PUT",
      registered.registration_client_uri,
      registered.registration_access_token,
      change,
    );
    expect(await waiting.json()).toMatchObject({
      status: "approved",
      redirect_uris: [oldUri],
      pending_changes: expect.objectContaining({ redirect_uris: [newUri] }),
    });
    expect((await authorizeAt(registered.client_id, oldUri)).status).toBe(302);
    expect((await authorizeAt(registered.client_id, newUri)).status).toBe(400);

    const rejected = await admin("clients", "reject", registered.client_id, "--reason", "Use your production domain");
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      status: "approved",
      review_note: "Use your production domain",
    });
    await manage("PUT", registered.registration_client_uri, registered.registration_access_token, change);
    await admin("clients", "approve", registered.client_id);
    expect((await authorizeAt(registered.client_id, newUri)).status).toBe(302);
    const told = await db().outboxMessage.findFirstOrThrow({
      where: { recipient: "developer@demo.test", kind: "application_change_approved" },
      orderBy: { createdAt: "desc" },
    });
    expect(told.subject).toBe("The change to Praxissoft Shop is approved on OptiGate");
    const tokenResponse = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        { authorization: basic(registered.client_id, secret) },
      ),
    );
    expect(tokenResponse.status).toBe(400);
    expect(await tokenResponse.json()).toMatchObject({ error: "unauthorized_client" });
  });

  it("approves nothing beyond the vendor's allowance as it is now, nor for a deactivated vendor", async () => {
    const token = await initialToken();
    await admin("partners", "scopes", VENDOR, "platform.catalogs.read");
    const registered = await (await register(token, webApp({ scope: "openid platform.catalogs.read" }))).json();
    await admin("partners", "scopes", VENDOR);
    try {
      const shrunk = await admin("clients", "approve", registered.client_id);
      expect(shrunk.code).not.toBe(0);
      expect(shrunk.stderr).toMatch(/platform\.catalogs\.read.*not among those your company may ask for/);
    } finally {
      await admin("partners", "scopes", VENDOR, "platform.catalogs.read");
    }
    expect((await admin("companies", "deactivate", VENDOR)).code).toBe(0);
    try {
      expect((await admin("clients", "approve", registered.client_id)).stderr).toMatch(/is deactivated/);
    } finally {
      await admin("companies", "activate", VENDOR);
    }
    expect((await db().client.findUniqueOrThrow({ where: { id: registered.client_id } })).status).toBe("pending");
    expect((await admin("clients", "approve", registered.client_id)).code).toBe(0);
  });

  it("holds a vendor to its number of applications", async () => {
    const registration = parseClientMetadata(webApp(), "platform");
    const owner = { companyId: VENDOR, registrationTokenHash: hashToken(`limit-${counter}`) };
    const count = await db().client.count({ where: { ownerCompanyId: VENDOR } });
    const refused = await insertPendingClient(
      db(),
      { ...registration, id: registration.id! },
      { ...owner, limit: count },
    );
    expect(refused).toBe("too_many");
    const stored = await insertPendingClient(
      db(),
      { ...registration, id: registration.id! },
      { ...owner, limit: count + 1 },
    );
    expect(stored).toMatchObject({ application: { id: registration.id, status: "pending" } });
  });

  it("rejects a pending registration with a reason, and discovery names the endpoint", async () => {
    const token = await initialToken();
    const registered = await (await register(token, webApp())).json();
    expect((await admin("clients", "reject", registered.client_id)).stderr).toMatch(/--reason/);
    const rejected = JSON.parse(
      (await admin("clients", "reject", registered.client_id, "--reason", "Unknown shop")).stdout,
    );
    expect(rejected).toMatchObject({ status: "rejected", review_note: "Unknown shop" });
    expect((await authorizeAt(registered.client_id, registered.redirect_uris[0])).status).toBe(400);
    const discovery = await (
      await import("@/app/.well-known/openid-configuration/route")
    ).GET(new Request(`${ISSUER}/.well-known/openid-configuration`));
    expect(await discovery.json()).toMatchObject({ registration_endpoint: `${ISSUER}/connect/register` });
  });
});

describe(`the operator's review on the admin pages on ${testProvider()}`, () => {
  const review = (agent: UserAgent, form: Record<string, string>) => agent.post("admin", "/interaction/admin", form);

  it("shows the demo vendor's pending application, and approves it for operators only, with a reason to reject", async () => {
    const pending = await db().client.findUniqueOrThrow({ where: { id: "praxissoft-termine" } });
    expect(pending).toMatchObject({ status: "pending", ownerCompanyId: VENDOR });
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    for (const agent of [developer, new UserAgent()])
      expect((await review(agent, { action: "approve", client_id: "praxissoft-termine" })).status).toBe(403);
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const noReason = await review(operator, { action: "reject", client_id: "praxissoft-termine", reason: "  " });
    expect(noReason.headers.get("location")).toBe("/admin/clients/praxissoft-termine");
    expect((await db().client.findUniqueOrThrow({ where: { id: "praxissoft-termine" } })).status).toBe("pending");
    const approved = await review(operator, { action: "approve", client_id: "praxissoft-termine" });
    expect(approved.headers.get("location")).toBe("/admin/clients/praxissoft-termine?reviewed=approve");
    expect((await db().client.findUniqueOrThrow({ where: { id: "praxissoft-termine" } })).status).toBe("approved");
    const events = await db().auditEvent.findMany({
      where: { clientId: "praxissoft-termine", type: "client.approved" },
    });
    expect(events).toHaveLength(1);
    const again = await review(operator, { action: "approve", client_id: "praxissoft-termine" });
    expect(again.headers.get("location")).toBe("/admin/clients/praxissoft-termine");
  });

  it("sets the vendor's platform scopes on the company page, for operators only", async () => {
    const companies = (agent: UserAgent, form: Record<string, string | string[]>) =>
      agent.post("companies", "/interaction/companies", { action: "partner-scopes", company_id: VENDOR, ...form });
    const scopesNow = async () =>
      JSON.parse((await db().company.findUniqueOrThrow({ where: { id: VENDOR } })).partnerScopes);
    const before = await scopesNow();
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    expect((await companies(developer, { partner_scope: "platform.supplierreg.readwrite" })).status).toBe(403);
    expect(await scopesNow()).toEqual(before);
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const saved = await companies(operator, { partner_scope: ["platform.catalogs.read", "platform.supplierreg.read"] });
    expect(saved.headers.get("location")).toBe(`/admin/companies/${VENDOR}?scopesSaved=1`);
    expect(await scopesNow()).toEqual(["platform.catalogs.read", "platform.supplierreg.read"]);
    const token = await initialToken();
    expect((await register(token, webApp({ scope: "openid platform.supplierreg.read" }))).status).toBe(201);
    expect((await register(token, webApp({ scope: "openid platform.supplierreg.readwrite" }))).status).toBe(400);
    const unknown = await companies(operator, { partner_scope: "platform.everything" });
    expect(unknown.headers.get("location")).toBe(`/admin/companies/${VENDOR}#company-form`);
    expect(await scopesNow()).toEqual(["platform.catalogs.read", "platform.supplierreg.read"]);
    const notVendor = await companies(operator, { company_id: "demo-company-optician", partner_scope: [] });
    expect(notVendor.headers.get("location")).toBe("/admin/companies/demo-company-optician#company-form");
  });

  it("refuses a decision on a version the vendor changed since the page showed it", async () => {
    const token = await initialToken();
    const registered = await (await register(token, webApp())).json();
    const shown = (await db().client.findUniqueOrThrow({ where: { id: registered.client_id } })).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const change = { ...registered, redirect_uris: ["https://shop.praxissoft.example/other-callback"] };
    expect(
      (await manage("PUT", registered.registration_client_uri, registered.registration_access_token, change)).status,
    ).toBe(200);
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const form = { action: "approve", client_id: registered.client_id, version: shown.toISOString() };
    const stale = await review(operator, form);
    expect(stale.headers.get("location")).toBe(`/admin/clients/${registered.client_id}`);
    expect((await db().client.findUniqueOrThrow({ where: { id: registered.client_id } })).status).toBe("pending");
    const current = (await db().client.findUniqueOrThrow({ where: { id: registered.client_id } })).updatedAt;
    const approved = await review(operator, { ...form, version: current.toISOString() });
    expect(approved.headers.get("location")).toBe(`/admin/clients/${registered.client_id}?reviewed=approve`);
    expect(await db().client.findUniqueOrThrow({ where: { id: registered.client_id } })).toMatchObject({
      status: "approved",
      redirectUris: expect.stringContaining("other-callback"),
    });
  });
});
