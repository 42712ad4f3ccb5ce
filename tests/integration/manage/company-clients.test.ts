/**
 * A company's own API clients (issue 48), through the real form route of /portal/company with a signed-in agent and
 * the real token and management API routes on a real database: the administrator creates one with company scopes
 * (its secret shown once), its token reaches its own company's sign-in and nothing else (another company, the
 * operator's resources, platform scopes at the token endpoint), secrets rotate, and the client goes with its removal
 * or its company's deactivation. Nobody but the company's administrators and operators sees or touches them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createCompanyClient, MAX_COMPANY_API_CLIENTS } from "@/lib/admin/company-clients";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { actorOfSessionCookie, AccessDenied, type Actor } from "@/lib/rights/actor";
import { companyClientsView, createOwnCompanyClient } from "@/lib/rights/company-clients";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { prismaStores } from "@/lib/store/stores";
import english from "@/messages/en.json";
import { basic, call, formRequest, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { postCompanyClients } from "../../helpers/company-client-forms";
import { manage, managementToken } from "../../helpers/manage-api";
import { clientToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const OPTICIAN = ["optician@demo.test", "Optician#2026"] as const;
const COMPANY = "demo-company-optician";
const LENS = "demo-company-lens";
const SCOPES = ["manage.company.users.read", "manage.company.sso.read"];

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());

let admin: UserAgent;
let lensAdmin: UserAgent;
let plainUser: UserAgent;
let operator: UserAgent;

const actorOf = (agent?: UserAgent): Promise<Actor> =>
  actorOfSessionCookie(getServiceContext(), agent?.cookies.get(SESSION_COOKIE));

/** A person of a company, with the optician's password. */
async function person(email: string, companyId: string, role: "admin" | "user") {
  const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
  await db().user.create({ data: { email, companyId, role, givenName: "Test", familyName: "Person", passwordHash } });
  return signedInAgent(email, OPTICIAN[1]);
}

/** Creates a client on the page as the agent; its id and the secret the page shows once. */
async function created(agent: UserAgent, name: string, scopes = SCOPES) {
  const { response, outcome } = await postCompanyClients(agent, { action: "create", name, scope: scopes });
  expect([response.status, response.headers.get("location")]).toEqual([303, "/portal/company#api-clients"]);
  expect(outcome).toMatchObject({ action: "create", clientId: expect.any(String), secret: expect.any(String) });
  return { clientId: outcome!.clientId!, secret: outcome!.secret! };
}

/** The token endpoint's answer to a client_credentials request. */
const tokenRequest = (clientId: string, secret: string, scope: string) =>
  call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: "client_credentials", scope },
      { authorization: basic(clientId, secret) },
    ),
  );

const written = async () => ({
  clients: await db().client.count(),
  secrets: await db().clientSecret.count(),
  audit: await db().auditEvent.count({ where: { type: { startsWith: "client." } } }),
});

beforeAll(async () => {
  admin = await signedInAgent(...OPTICIAN);
  operator = await signedInAgent("admin@demo.test", "Admin#2026");
  lensAdmin = await person("boss@lens.example", LENS, "admin");
  plainUser = await person("plain@optik-demo.example", COMPANY, "user");
});

describe(`a company's own API clients on ${testProvider()}`, () => {
  it("are created on the company page with company scopes only; the token reaches its own company alone", async () => {
    // The company's sign-in, for its client to read.
    await stores().companySso.save(
      COMPANY,
      {
        issuer: "https://idp.optik-demo.example",
        clientId: "optigate",
        clientSecret: "upstream-secret",
        authMethod: "client_secret_basic",
        scope: "openid email profile",
        claims: { email: "email", given_name: "given_name", family_name: "family_name", roles: {} },
        hostedDomain: null,
        tenantId: null,
      },
      { secretKey: getServiceContext().config.secretKey, byOperator: false },
    );
    const { clientId, secret } = await created(admin, "  ERP  ");
    const row = await db().client.findUniqueOrThrow({ where: { id: clientId } });
    expect(row).toMatchObject({ kind: "backend", companyId: COMPANY, status: "approved", ownerCompanyId: null });
    expect(JSON.parse(row.allowedScopes)).toEqual(SCOPES);
    expect(JSON.parse(row.grantTypes)).toEqual(["client_credentials"]);
    expect(row.tokenEndpointAuthMethod).toBe("client_secret_basic");
    expect(JSON.parse(row.names)).toEqual({ default: "ERP" });

    const token = await clientToken(clientId, secret, SCOPES.join(" "));
    const own = await manage("GET", `/companies/${COMPANY}/sso`, { token });
    expect(own.response.status).toBe(200);
    expect(own.body).toMatchObject({ company_id: COMPANY, client_secret_set: true });
    expect(JSON.stringify(own.body)).not.toContain("upstream-secret");
    const other = await manage("GET", `/companies/${LENS}/sso`, { token });
    expect([other.response.status, other.body.type]).toEqual([403, "urn:optigate:problem:forbidden"]);
    const companies = await manage("GET", "/companies", { token });
    expect(companies.response.status).toBe(403);

    // Platform scopes are not its to ask for, nor company scopes it was not given.
    for (const scope of ["manage.companies.read", "manage.sso.read", "manage.company.sso.write"]) {
      const refused = await tokenRequest(clientId, secret, scope);
      expect([refused.status, (await refused.json()).error], scope).toEqual([400, "invalid_scope"]);
    }
  });

  it("shows the secret once, lists the client with its secrets' dates, and audits who did it", async () => {
    const { clientId, secret } = await created(admin, "Directory sync", ["manage.company.users.write"]);
    const view = await companyClientsView(await actorOf(admin));
    const listed = view!.clients.find((client) => client.client_id === clientId)!;
    expect(listed).toMatchObject({
      name: "Directory sync",
      scopes: ["manage.company.users.write"],
      created_at: expect.any(String),
    });
    expect(listed.secrets).toEqual([
      {
        id: expect.any(String),
        created_at: expect.any(String),
        expires_at: null,
        disabled_at: null,
        last_used_at: null,
      },
    ]);
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(view!.scopes).toEqual([
      "manage.company.users.read",
      "manage.company.users.write",
      "manage.company.sso.read",
      "manage.company.sso.write",
      "manage.company.webhooks.read",
      "manage.company.webhooks.write",
    ]);
    const adminId = (await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).id;
    const events = await db().auditEvent.findMany({ where: { clientId }, orderBy: { occurredAt: "asc" } });
    expect(events.map((event) => [event.type, event.userId])).toEqual([
      ["client.registered", adminId],
      ["client.secret_added", adminId],
    ]);
    expect(JSON.parse(events[0].details)).toEqual({ kind: "backend" });
    expect(events[0].companyId).toBe(COMPANY);
  });

  it("rotates secrets: a new one works at once, a disabled one no longer", async () => {
    const { clientId, secret } = await created(admin, "Rotating");
    const added = await postCompanyClients(admin, { action: "secret-add", client_id: clientId });
    expect(added.outcome).toMatchObject({ action: "secret-add", clientId, secret: expect.any(String) });
    await clientToken(clientId, added.outcome!.secret!, SCOPES[0]);
    const [first] = (await companyClientsView(await actorOf(admin)))!.clients.find(
      (c) => c.client_id === clientId,
    )!.secrets;
    const disabled = await postCompanyClients(admin, {
      action: "secret-disable",
      client_id: clientId,
      secret_id: first.id,
    });
    expect(disabled.outcome).toEqual({ action: "secret-disable", clientId });
    expect((await tokenRequest(clientId, secret, SCOPES[0])).status).toBe(401);
    const again = await postCompanyClients(admin, {
      action: "secret-disable",
      client_id: clientId,
      secret_id: first.id,
    });
    expect(again.outcome).toMatchObject({ problem: "secret_already_disabled" });
    const unknown = await postCompanyClients(admin, { action: "secret-disable", client_id: clientId, secret_id: "x" });
    expect(unknown.outcome).toMatchObject({ problem: "secret_not_found" });
    const listed = (await companyClientsView(await actorOf(admin)))!.clients.find((c) => c.client_id === clientId)!;
    expect(listed.secrets.map((each) => each.disabled_at !== null)).toEqual([true, false]);
  });

  it("refuses bad input at the form with a message of every language, writing nothing", async () => {
    const before = await written();
    const cases: [Record<string, string | string[]>, string][] = [
      [{ action: "create", name: "", scope: SCOPES }, "invalid_name"],
      [{ action: "create", name: "x".repeat(101), scope: SCOPES }, "invalid_name"],
      [{ action: "create", name: "Tab\there", scope: SCOPES }, "invalid_name"],
      [{ action: "create", name: "No scopes" }, "invalid_scopes"],
      [{ action: "create", name: "Platform", scope: ["manage.companies.read"] }, "invalid_scopes"],
      [{ action: "create", name: "Catalogs", scope: ["platform.catalogs.read"] }, "invalid_scopes"],
      [{ action: "create", name: "Mixed", scope: [...SCOPES, "manage.sso.write"] }, "invalid_scopes"],
      [{ action: "create", name: "Forged", scope: SCOPES, [CSRF_FIELD]: "forged" }, "form_expired"],
      [{ action: "explode" }, "unknown_action"],
      [{ action: "secret-add", client_id: "no-such-client" }, "client_not_found"],
      [{ action: "remove", client_id: "demo-web" }, "client_not_found"],
    ];
    const problems = english.CompanyClients.problems as Record<string, string>;
    for (const [form, problem] of cases) {
      const { response, outcome } = await postCompanyClients(admin, form);
      const where = JSON.stringify(form).slice(0, 120);
      expect(response.status, where).toBe(303);
      expect(outcome?.problem, where).toBe(problem);
      expect(problems[problem], where).toEqual(expect.any(String));
      for (const locale of ["de", "es", "fr", "it", "nl", "pl"]) {
        const messages = (await import(`@/messages/${locale}.json`)).default.CompanyClients.problems;
        expect(messages[problem], `${locale} ${problem}`).toEqual(expect.any(String));
      }
    }
    expect(await written()).toEqual(before);
  });

  it("never names another company: the company is the administrator's own, whatever the form says", async () => {
    const { response, outcome } = await postCompanyClients(admin, {
      action: "create",
      name: "Sneaky",
      scope: SCOPES,
      company_id: LENS,
    });
    expect(response.status).toBe(303);
    const row = await db().client.findUniqueOrThrow({ where: { id: outcome!.clientId! } });
    expect(row.companyId).toBe(COMPANY);
  });

  it("keeps each company's clients to its own administrators, and operators' clients to operators", async () => {
    const lens = await created(lensAdmin, "Lens ERP");
    const before = await written();
    // Another company's client, and an operator's client with the company's rights on the platform API.
    await registerClient(
      stores(),
      parseClientMetadata(
        {
          client_id: "operator-made",
          grant_types: ["client_credentials"],
          scope: "platform.catalogs.read",
          company_id: COMPANY,
        },
        "platform",
      ),
    );
    for (const clientId of [lens.clientId, "operator-made"]) {
      for (const form of [
        { action: "secret-add", client_id: clientId },
        { action: "remove", client_id: clientId },
      ]) {
        const { outcome } = await postCompanyClients(admin, form);
        expect(outcome, `${clientId} ${form.action}`).toMatchObject({ problem: "client_not_found" });
      }
    }
    const optician = (await companyClientsView(await actorOf(admin)))!.clients.map((client) => client.client_id);
    expect(optician).not.toContain(lens.clientId);
    expect(optician).not.toContain("operator-made");
    const lensView = (await companyClientsView(await actorOf(lensAdmin)))!.clients.map((client) => client.client_id);
    expect(lensView).toEqual([lens.clientId]);
    expect(await db().client.count()).toBe(before.clients + 1);

    // Operators: not on their own company's page, but for a company they name.
    expect(await companyClientsView(await actorOf(operator))).toBeNull();
    const named = (await companyClientsView(await actorOf(operator), COMPANY))!.clients.map((c) => c.client_id);
    expect(named).toEqual(optician);

    // Nobody else: refused outright, and the forms too.
    for (const [who, agent] of [
      ["a user of the company", plainUser],
      ["a supplier's user", await signedInAgent("supplier@demo.test", "Supplier#2026")],
      ["a visitor", undefined],
    ] as const) {
      const refused = await companyClientsView(await actorOf(agent)).catch((error: unknown) => error);
      expect(refused, who).toBeInstanceOf(AccessDenied);
    }
    expect(await companyClientsView(await actorOf(lensAdmin), COMPANY).catch((error: unknown) => error)).toBeInstanceOf(
      AccessDenied,
    );
    const beforeForms = await written();
    const forms: Record<string, string | string[]>[] = [
      { action: "create", name: "Nope", scope: SCOPES },
      { action: "remove", client_id: lens.clientId },
    ];
    for (const form of forms) {
      for (const agent of [plainUser, operator]) {
        const { response, outcome } = await postCompanyClients(agent, form);
        expect([response.status, outcome], String(form.action)).toEqual([403, undefined]);
      }
      const visitor = await postCompanyClients(new UserAgent(), form);
      expect(visitor.response.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fcompany");
    }
    expect(await written()).toEqual(beforeForms);
  });

  it("gives a company's client no way to make clients, and a company at most so many", async () => {
    const { context } = { context: getServiceContext() };
    const company = await stores().companies.find(COMPANY);
    const manager: Actor = {
      kind: "manager",
      context,
      clientId: "some-client",
      scopes: new Set(["manage.company.users.write"]),
      company: company!,
    };
    const refused = await createOwnCompanyClient(manager, { name: "Child", scopes: SCOPES }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AccessDenied);

    const present = (await companyClientsView(await actorOf(lensAdmin)))!.clients.length;
    for (let n = present; n < MAX_COMPANY_API_CLIENTS; n++)
      await createCompanyClient(
        stores(),
        LENS,
        { name: `Filler ${n}`, scopes: SCOPES },
        { apiScopePrefix: "platform" },
      );
    const { outcome } = await postCompanyClients(lensAdmin, { action: "create", name: "One too many", scope: SCOPES });
    expect(outcome).toMatchObject({ problem: "too_many_clients", typed: { name: "One too many", scopes: SCOPES } });
  });

  it("removes the client with its secrets: its tokens are refused from then on", async () => {
    const { clientId, secret } = await created(admin, "Short-lived");
    const token = await clientToken(clientId, secret, SCOPES.join(" "));
    expect((await manage("GET", `/companies/${COMPANY}/sso`, { token })).response.status).toBe(200);
    const { outcome } = await postCompanyClients(admin, { action: "remove", client_id: clientId });
    expect(outcome).toEqual({ action: "remove", clientId });
    expect(await db().client.count({ where: { id: clientId } })).toBe(0);
    expect(await db().clientSecret.count({ where: { clientId } })).toBe(0);
    expect((await manage("GET", `/companies/${COMPANY}/sso`, { token })).response.status).toBe(401);
    expect((await tokenRequest(clientId, secret, SCOPES[0])).status).toBe(401);
    expect((await db().auditEvent.findFirstOrThrow({ where: { clientId, type: "client.removed" } })).userId).toBe(
      (await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).id,
    );
  });

  it("is refused while its company is deactivated, and works again once it is active", async () => {
    const { clientId, secret } = await created(admin, "Seasonal");
    const token = await clientToken(clientId, secret, SCOPES.join(" "));
    const operatorClient = await managementToken(stores(), ["manage.companies.write", "manage.companies.read"]);
    const off = await manage("POST", `/companies/${COMPANY}/deactivate`, { token: operatorClient.token });
    expect(off.response.status).toBe(200);
    const refused = await manage("GET", `/companies/${COMPANY}/sso`, { token });
    expect(refused.response.status).toBe(401);
    expect(refused.body.detail).toMatch(/deactivated/);
    await manage("POST", `/companies/${COMPANY}/activate`, { token: operatorClient.token });
    expect((await manage("GET", `/companies/${COMPANY}/sso`, { token })).response.status).toBe(200);
  });
});
