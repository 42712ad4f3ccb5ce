/**
 * A company's "second factor required" holds everywhere (security review 4, finding 3): a session without the second
 * factor reaches only the security page, the second step and sign-out; switching the rule on ends password-only
 * sessions and stops password-only refresh tokens; the platform API's POST and SilentLogin's bearer form ask for the
 * mfa level. What an operator requires, a company administrator cannot lift (finding 9).
 */
import { prismaStores } from "@/lib/store/stores";
import { beforeAll, describe, expect, it } from "vitest";
import { requireSecondFactor } from "@/lib/admin/company-registry";
import { actorOfSessionCookie, AccessDenied, type Actor } from "@/lib/rights/actor";
import { companyPeopleView } from "@/lib/rights/company-people";
import { ownSessions } from "@/lib/rights/own-account";
import { listApplicationGrants, profileOf } from "@/lib/rights/portal";
import { securityView } from "@/lib/rights/second-factors";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { call, formRequest, signedInAgent, useOAuthService, UserAgent } from "../../helpers/oauth-service";
import { api, userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const noAnnouncement = async () => {};
const setRule = (companyId: string, required: boolean) =>
  requireSecondFactor(prismaStores(db()), companyId, { required, byOperator: true }, noAnnouncement);

const actorOf = (agent: UserAgent): Promise<Actor> =>
  actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE));

async function refusal(read: () => unknown): Promise<string | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (error instanceof AccessDenied) return error.code;
    throw error;
  }
}

let before: { agent: UserAgent; refreshToken: string; accessToken: string };

beforeAll(async () => {
  // A session and an offline grant from a password alone, before the rule.
  const agent = await signedInAgent("supplier@demo.test", "Supplier#2026");
  const tokens = await userTokens(
    "supplier@demo.test",
    "Supplier#2026",
    "openid offline_access platform.catalogs.read platform.supplierreg.readwrite",
    agent,
  );
  before = { agent, refreshToken: tokens.refresh_token!, accessToken: tokens.access_token };
  await setRule("demo-company-lens", true);
});

describe(`a company that requires a second factor, on ${testProvider()}`, () => {
  it("ends the sessions that gave no second factor when the rule is switched on", async () => {
    expect((await actorOf(before.agent)).kind).toBe("anonymous");
  });

  it("refuses a refresh token from a password alone, asking for a new sign-in", async () => {
    const response = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "refresh_token", refresh_token: before.refreshToken },
        { authorization: `Basic ${Buffer.from("demo-web:demo-web-secret").toString("base64")}` },
      ),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringMatching(/second factor/),
    });
  });

  it("gives a password-only session the security page and nothing of a user's rights", async () => {
    const actor = await actorOf(await enrolmentSession("supplier@demo.test", "Supplier#2026"));
    expect(actor.kind).toBe("second_factor_owed");
    expect(await refusal(() => listApplicationGrants(actor, "en"))).toBe("second_factor_required");
    expect(await refusal(() => profileOf(actor))).toBe("second_factor_required");
    expect(await refusal(() => securityView(actor))).toBeUndefined();
    expect(await refusal(() => ownSessions(actor))).toBeUndefined();
  });

  it("refuses a password-only session's forms: catalog release, registration decisions", async () => {
    const agent = await enrolmentSession("supplier@demo.test", "Supplier#2026");
    const revision = await db().catalogRevision.findFirstOrThrow({
      where: { released: false, catalog: { supplierCompanyId: "demo-company-lens" } },
    });
    const release = await agent.post("catalogs", "/interaction/catalogs", {
      action: "release",
      catalog_id: "catalog.xml",
      revision: String(revision.number),
    });
    expect(release.status).toBe(403);
    expect((await db().catalogRevision.findUniqueOrThrow({ where: { id: revision.id } })).released).toBe(false);
    const request = await db().supplierRegistration.findFirstOrThrow({
      where: { supplierCompanyId: "demo-company-lens", status: "requested" },
    });
    const decision = await agent.post("suppliers", "/interaction/suppliers", {
      action: "approve",
      registration_id: request.id,
      version: String(request.version),
      customer_groups: "2",
    });
    expect([decision.status, decision.headers.get("location")]).toEqual([303, "/portal/security?enrol=required"]);
    expect((await db().supplierRegistration.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("requested");
  });

  it("refuses a password-only session the operator's and the developer's forms", async () => {
    await setRule("demo-company-operator", true);
    await setRule("demo-company-vendor", true);
    const operator = await enrolmentSession("admin@demo.test", "Admin#2026");
    const register = await operator.post("admin", "/interaction/admin", {
      action: "register",
      metadata: JSON.stringify({
        client_id: "owed-session-client",
        grant_types: ["client_credentials"],
        scope: "platform.catalogs.read",
      }),
    });
    expect(register.status).toBe(403);
    const developer = await enrolmentSession("developer@demo.test", "Developer#2026");
    const secret = await developer.post("developer", "/interaction/developer", {
      action: "register",
      metadata: JSON.stringify({
        client_name: "Owed",
        grant_types: ["client_credentials"],
        scope: "platform.catalogs.read",
      }),
    });
    expect(secret.status).not.toBe(303);
    expect(await db().client.count({ where: { id: "owed-session-client" } })).toBe(0);
    expect(
      await db().client.count({ where: { ownerCompanyId: "demo-company-vendor", names: { contains: "Owed" } } }),
    ).toBe(0);
    await setRule("demo-company-operator", false);
    await setRule("demo-company-vendor", false);
  });

  it("lets a password-only session sign out", async () => {
    const agent = await enrolmentSession("supplier@demo.test", "Supplier#2026");
    const response = await agent.post("signout", "/interaction/signout", { decision: "logout" });
    expect(response.status).toBe(303);
    expect((await actorOf(agent)).kind).toBe("anonymous");
  });

  it("asks for the mfa level at POST /v2/supplierregistrations and at SilentLogin's bearer form", async () => {
    const agent = await enrolmentSession("supplier@demo.test", "Supplier#2026");
    await setRule("demo-company-lens", false);
    const tokens = await userTokens(
      "supplier@demo.test",
      "Supplier#2026",
      "openid platform.catalogs.read platform.supplierreg.readwrite",
      agent,
    );
    await setRule("demo-company-lens", true);
    const created = await api("POST", "/v2/supplierregistrations", {
      token: tokens.access_token,
      body: { supplierId: "FWG", clientId: "4711" },
    });
    expect(created.response.status).toBe(401);
    expect(created.response.headers.get("www-authenticate")).toMatch(/insufficient_user_authentication/);
    const { POST } = await import("@/app/services/login/SilentLogin/route");
    const ticket = await POST(
      formRequest("/services/login/SilentLogin", {}, { authorization: `Bearer ${tokens.access_token}` }),
    );
    expect(ticket.status).toBe(403);
    expect(await ticket.json()).toMatchObject({ error: "insufficient_user_authentication" });
  });
});

describe(`who lifts a company's rule, on ${testProvider()}`, () => {
  it("keeps an operator's rule from the company's administrator, who may set and lift their own", async () => {
    const byAdmin = (required: boolean) =>
      requireSecondFactor(prismaStores(db()), "demo-company-optician", { required, byOperator: false }, noAnnouncement);
    await setRule("demo-company-optician", true);
    const owing = await enrolmentSession("optician@demo.test", "Optician#2026");
    expect(await refusal(async () => companyPeopleView(await actorOf(owing)))).toBe("second_factor_required");
    await expect(byAdmin(false)).rejects.toMatchObject({ code: "invalid_state" });
    expect((await db().company.findUniqueOrThrow({ where: { id: "demo-company-optician" } })).requireSecondFactor).toBe(
      true,
    );

    await setRule("demo-company-optician", false);
    const admin = await signedInAgent("optician@demo.test", "Optician#2026");
    const on = await admin.post("company", "/interaction/company", { action: "second-factor", required: "on" });
    expect(on.status).toBe(303);
    // Switching it on keeps the switcher's own session, which now owes the factor; the owing session before is ended.
    expect((await actorOf(admin)).kind).toBe("second_factor_owed");
    expect((await actorOf(owing)).kind).toBe("anonymous");
    expect((await byAdmin(false)).require_second_factor).toBe(false);
    expect((await db().company.findUniqueOrThrow({ where: { id: "demo-company-optician" } })).requireSecondFactor).toBe(
      false,
    );
  });
});

/** A sign-in by password of a user who must enrol: the session it starts (the login answers with enrolment). */
async function enrolmentSession(email: string, password: string): Promise<UserAgent> {
  const agent = new UserAgent();
  const response = await agent.login("/", email, password);
  expect(response.headers.get("location")).toMatch(/^\/portal\/security\?enrol=required/);
  return agent;
}
