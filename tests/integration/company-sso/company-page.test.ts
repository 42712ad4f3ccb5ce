/**
 * The company sign-in section of /portal/company (issue 46, point 6), through the real form handler
 * (POST /interaction/company/sso) and callback (GET /login/sso/callback) on a real database, against a real upstream
 * provider (node-oidc-provider on 127.0.0.1): the company's administrator sets the provider up on a company's rules
 * (its secret write-only), is refused bad input with a message key at the field and nothing written, turns sign-in
 * and SSO-only on and off, claims, verifies (through a DNS server on 127.0.0.1) and gives up domains, and tests the
 * connection: a round trip that reports what the provider said, signs nobody in and marks the settings tested, for
 * the administrator who began it only. Users who are no administrator, another company's administrator and operators
 * get nothing of it; every change is in the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dnsTxtLookup } from "@/lib/admin/domain-verification";
import { setCompanySso } from "@/lib/admin/company-sso-registry";
import { actorOfSessionCookie, AccessDenied, type Actor } from "@/lib/rights/actor";
import { companySsoView } from "@/lib/rights/company-sso-settings";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { STANDARD_CLAIMS } from "@/lib/store/models/company-sso";
import english from "@/messages/en.json";
import german from "@/messages/de.json";
import { companySsoOutcomeOf as outcomeOf, postCompanySso } from "../../helpers/company-sso-forms";
import { startDnsServer } from "../../helpers/dns-server";
import { ISSUER, SECRET_KEY, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { signInAtUpstream, startUpstreamIdp, type UpstreamIdp } from "../../helpers/upstream-idp";

// The operator may reach providers on the loopback (as CONTRACT §14 says); a company's administrator never may.
process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const OPTICIAN = ["optician@demo.test", "Optician#2026"] as const;
const COMPANY = "demo-company-optician";
const LENS_ADMIN = "boss@lens.example";
const REDIRECT_URI = `${ISSUER}/login/sso/callback`;
const SECRET = "page-client-secret-0123456789";
const TESTER = "tina@optik-demo.example";

const service = useOAuthService();
const db = () => service().database.db;
let upstream: UpstreamIdp;

async function post(agent: UserAgent, form: Record<string, string>) {
  const response = await agent.post("company-sso", "/interaction/company/sso", form);
  return { response, outcome: outcomeOf(response) };
}

/** The settings form as the page posts it, filled in for the test provider. */
const settings = (changes: Record<string, string> = {}) => ({
  action: "settings",
  issuer: upstream.issuer,
  client_id: "optigate-page",
  client_secret: SECRET,
  token_endpoint_auth_method: "client_secret_basic",
  scope: "openid email profile",
  claim_email: "",
  claim_given_name: "",
  claim_family_name: "",
  claim_groups: "groups",
  roles: "optik-admins=admin\r\noptik-staff = user\r\n",
  hosted_domain: "",
  tenant_id: "",
  ...changes,
});

const actorOf = (agent?: UserAgent): Promise<Actor> =>
  actorOfSessionCookie(getServiceContext(), agent?.cookies.get(SESSION_COOKIE));

const userId = async (email: string) => (await db().user.findUniqueOrThrow({ where: { email } })).id;

const auditOf = (type: string, email = OPTICIAN[0]) =>
  userId(email).then((id) => db().auditEvent.findMany({ where: { type, userId: id }, orderBy: { occurredAt: "asc" } }));

/** What the section's forms may write: the provider, the domains, the companies' audit events. */
const written = async () => ({
  sso: await db().companySso.findMany({ orderBy: { companyId: "asc" } }),
  domains: await db().companyDomain.findMany({ orderBy: { domain: "asc" } }),
  audit: await db().auditEvent.count({ where: { type: { startsWith: "company." } } }),
});

/** Starts a test, signs in at the provider as `login`, and returns the URL the provider sends the browser back to. */
async function roundTrip(agent: UserAgent, login = TESTER) {
  const { response } = await post(agent, { action: "test" });
  expect(response.status).toBe(303);
  const back = await signInAtUpstream(response.headers.get("location")!, REDIRECT_URI, {
    login,
    amr: ["pwd", "mfa"],
    acr: "urn:example:mfa",
  });
  return `${back.pathname}${back.search}`;
}

let lensAdmin: UserAgent;

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // node-oidc-provider warns about its development pages
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  upstream = await startUpstreamIdp({
    redirectUri: REDIRECT_URI,
    clients: [{ clientId: "optigate-page", secret: SECRET }],
    accounts: {
      [TESTER]: {
        email: TESTER,
        email_verified: true,
        given_name: "Tina",
        family_name: "Test",
        groups: ["optik-staff", ...Array.from({ length: 14 }, (_, n) => `team-${n}`)],
      },
    },
  });
  const optician = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
  await db().user.create({
    data: {
      email: LENS_ADMIN,
      companyId: "demo-company-lens",
      role: "admin",
      givenName: "Bo",
      familyName: "Lens",
      passwordHash: optician.passwordHash,
    },
  });
  lensAdmin = await signedInAgent(LENS_ADMIN, OPTICIAN[1]);
});
afterAll(async () => upstream?.close());

describe(`the company page's sign-in section on ${testProvider()}`, () => {
  it("refuses bad settings with a message of every language at the field, writing nothing", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const before = await written();
    const cases: [Record<string, string>, string, string?][] = [
      [{ client_secret: "" }, "secret_needed", "client_secret"],
      [{ issuer: "no address" }, "invalid_issuer", "issuer"],
      [{ issuer: `${upstream.issuer}?tenant=x` }, "invalid_issuer", "issuer"],
      [{ issuer: "ftp://idp.example" }, "invalid_issuer", "issuer"],
      [{ client_id: "" }, "invalid_client_id", "client_id"],
      [{ client_secret: "with spaces in it" }, "invalid_client_secret", "client_secret"],
      [{ token_endpoint_auth_method: "none" }, "invalid_token_endpoint_auth_method", "token_endpoint_auth_method"],
      [{ scope: "email profile" }, "invalid_scope", "scope"],
      [{ claim_email: "mail address" }, "invalid_claim_name", "claim_email"],
      [{ roles: "optik-admins" }, "roles_format", "roles"],
      [{ roles: "optik-admins=boss" }, "invalid_roles", "roles"],
      [{ claim_groups: "", roles: "optik-admins=admin" }, "invalid_roles", "roles"],
      [{ roles: "optik-devs=developer" }, "role_not_for_company", "roles"],
      [{ hosted_domain: "not a domain" }, "invalid_hosted_domain", "hosted_domain"],
      [{ issuer: `${upstream.issuer}/{tenantid}/v2.0` }, "invalid_tenant_id", "tenant_id"],
      [{ tenant_id: "contoso" }, "invalid_tenant_id", "tenant_id"],
      [{ [CSRF_FIELD]: "forged" }, "form_expired"],
    ];
    const problems = english.CompanySso.problems as Record<string, string>;
    const germanProblems = german.CompanySso.problems as Record<string, string>;
    for (const [changes, problem, field] of cases) {
      const { response, outcome } = await post(admin, settings(changes));
      const where = JSON.stringify(changes);
      expect(response.status, where).toBe(303);
      expect(response.headers.get("location"), where).toBe("/portal/company#sso-settings");
      expect(outcome, where).toMatchObject({ action: "settings", problem, ...(field ? { field } : {}) });
      expect([problems[problem], germanProblems[problem] !== problems[problem]], where).toEqual([
        expect.any(String),
        true,
      ]);
      // What was typed comes back for the form, the secret never.
      if (problem !== "form_expired") expect(outcome?.typed?.client_id, where).toBe(settings(changes).client_id);
      expect(JSON.stringify(outcome), where).not.toContain("with spaces in it");
      expect(JSON.stringify(outcome), where).not.toContain(SECRET);
    }
    expect(await written()).toEqual(before);
  });

  it("sets the provider up on a company's rules, audited, with the secret sealed and never shown", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const { response, outcome } = await post(admin, settings());
    expect([response.status, response.headers.get("location")]).toEqual([303, "/portal/company#sso-settings"]);
    expect(outcome).toEqual({ action: "settings" });
    const row = await db().companySso.findUniqueOrThrow({ where: { companyId: COMPANY } });
    expect(row).toMatchObject({ issuer: upstream.issuer, clientId: "optigate-page", registeredByOperator: false });
    expect(row.enabled).toBe(false);
    expect(row.clientSecretSealed).not.toContain(SECRET);
    expect(JSON.parse(row.claims)).toMatchObject({ groups: "groups", roles: { "optik-admins": "admin" } });
    expect(JSON.parse(row.claims).roles).toEqual({ "optik-admins": "admin", "optik-staff": "user" });
    const [set] = await auditOf("company.sso_set");
    expect(JSON.parse(set.details)).toMatchObject({ companyId: COMPANY, byOperator: false, secretChanged: true });

    const view = await companySsoView(await actorOf(admin));
    expect(view?.provider).toMatchObject({
      issuer: upstream.issuer,
      client_secret_set: true,
      scope: "openid email profile",
    });
    expect(view?.callbackUrl).toBe(REDIRECT_URI);
    expect(JSON.stringify(view)).not.toContain(SECRET);

    // An empty secret keeps the stored one; the settings change, and count as untested again.
    await post(admin, settings({ client_secret: "", scope: "openid email" }));
    const kept = await db().companySso.findUniqueOrThrow({ where: { companyId: COMPANY } });
    expect([kept.clientSecretSealed, kept.scope]).toEqual([row.clientSecretSealed, "openid email"]);
    expect(JSON.parse((await auditOf("company.sso_set")).at(-1)!.details).secretChanged).toBe(false);
  });

  it("shows the section to the company's administrator only: others see none of the company's provider", async () => {
    const own = await companySsoView(await actorOf(await signedInAgent(...OPTICIAN)));
    expect(own?.provider?.client_id).toBe("optigate-page");
    // Another company's administrator sees their own company's, which has none.
    const lens = await companySsoView(await actorOf(lensAdmin));
    expect(lens).toEqual({ provider: null, domains: [], callbackUrl: REDIRECT_URI });
    // The operator's own company has no provider: the section is not there.
    expect(await companySsoView(await actorOf(await signedInAgent("admin@demo.test", "Admin#2026")))).toBeNull();
    for (const [who, actor] of [
      ["a user", await actorOf(await signedInAgent("supplier@demo.test", "Supplier#2026"))],
      ["a visitor", await actorOf()],
    ] as const) {
      const refused = await companySsoView(actor).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, who).toBeInstanceOf(AccessDenied);
    }
  });

  it("refuses every form to people who are no company administrator, and sends visitors to sign in", async () => {
    const user = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const before = await written();
    const forms: Record<string, string>[] = [
      settings(),
      { action: "enable" },
      { action: "domain-add", domain: "x.example" },
      { action: "test" },
    ];
    for (const form of forms) {
      for (const agent of [user, operator]) {
        const { response, outcome } = await post(agent, form);
        expect([response.status, outcome], form.action).toEqual([403, undefined]);
      }
      const visitor = await post(new UserAgent(), form);
      expect(visitor.response.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fcompany");
    }
    // Another company's administrator changes only their own company's, which has no provider to switch.
    expect((await post(lensAdmin, { action: "enable" })).outcome).toMatchObject({ problem: "no_provider" });
    expect((await post(lensAdmin, { action: "test" })).outcome).toMatchObject({ problem: "no_provider" });
    expect(await written()).toEqual(before);
  });

  it("keeps a company's provider to public addresses: its own loopback provider is not reached", async () => {
    const admin = await signedInAgent(...OPTICIAN);
    const { response, outcome } = await post(admin, { action: "test" });
    expect(response.headers.get("location")).toBe("/portal/company#sso-test");
    expect(outcome?.test).toMatchObject({ ok: false, failure: "provider_unreachable" });
    expect(outcome?.test && !outcome.test.ok && outcome.test.reason).toMatch(/not at a public address/);
    expect(upstream.requests).not.toContain("/.well-known/openid-configuration");
  });

  describe("with the provider registered by the operator (an internal provider)", () => {
    beforeAll(async () => {
      const { stores, config } = getServiceContext();
      await setCompanySso(
        stores,
        COMPANY,
        {
          issuer: upstream.issuer,
          clientId: "optigate-page",
          clientSecret: SECRET,
          authMethod: "client_secret_basic",
          scope: "openid email profile",
          claims: { ...STANDARD_CLAIMS, groups: "groups" },
          hostedDomain: null,
          tenantId: null,
        },
        { secretKey: config.secretKey, byOperator: true },
      );
    });

    it("tests the connection: reports what the provider said, signs nobody in, and marks the settings tested", async () => {
      const admin = await signedInAgent(...OPTICIAN);
      const sessionBefore = admin.cookies.get(SESSION_COOKIE);
      const sessions = await db().loginSession.count();
      const back = await roundTrip(admin);
      const response = await admin.get("sso-callback", back);
      expect([response.status, response.headers.get("location")]).toEqual([303, "/portal/company#sso-test"]);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("optigate_company_sign_in=;"))).toBe(true);
      const { test } = outcomeOf(response)!;
      expect(test).toEqual({
        ok: true,
        emailDomainVerified: false,
        recorded: true,
        identity: {
          issuer: upstream.issuer,
          subject: TESTER,
          email: TESTER,
          emailVerified: true,
          givenName: "Tina",
          familyName: "Test",
          groups: ["optik-staff", ...Array.from({ length: 11 }, (_, n) => `team-${n}`)],
          moreGroups: 3,
          amr: ["pwd", "mfa"],
          acr: "urn:example:mfa",
        },
      });
      // Nobody signed in: no session, no account, the administrator's own session as it was.
      expect(await db().loginSession.count()).toBe(sessions);
      expect(await db().user.count({ where: { email: TESTER } })).toBe(0);
      expect(admin.cookies.get(SESSION_COOKIE)).toBe(sessionBefore);
      expect(
        await db().auditEvent.count({ where: { type: "sign_in.succeeded", details: { contains: "company_sso" } } }),
      ).toBe(0);
      const row = await db().companySso.findUniqueOrThrow({ where: { companyId: COMPANY } });
      expect(row.testedAt).not.toBeNull();
      expect(await auditOf("company.sso_tested")).toHaveLength(1);
      expect((await companySsoView(await actorOf(admin)))?.provider?.tested_at).toBe(row.testedAt!.toISOString());
    });

    it("reports the provider's refusal, and a change of settings during the test, without marking them tested", async () => {
      const admin = await signedInAgent(...OPTICIAN);
      const { response } = await post(admin, { action: "test" });
      const denied = await signInAtUpstream(response.headers.get("location")!, REDIRECT_URI, {
        login: TESTER,
        abort: true,
      });
      const failed = outcomeOf(await admin.get("sso-callback", `${denied.pathname}${denied.search}`))?.test;
      expect(failed).toMatchObject({ ok: false, failure: "provider_error", upstreamError: "access_denied" });

      const back = await roundTrip(admin);
      const { stores } = getServiceContext();
      const { issuer, clientId, authMethod, scope, claims, hostedDomain, tenantId } =
        (await stores.companySso.find(COMPANY))!;
      const unchanged = { issuer, clientId, authMethod, scope, claims, hostedDomain, tenantId };
      await stores.companySso.save(COMPANY, unchanged, { secretKey: SECRET_KEY, byOperator: true });
      const report = outcomeOf(await admin.get("sso-callback", back))?.test;
      expect(report).toMatchObject({ ok: true, recorded: false });
      expect((await db().companySso.findUniqueOrThrow({ where: { companyId: COMPANY } })).testedAt).toBeNull();
    });

    it("refuses a test cookie in anyone else's session, or once its administrator is one no more", async () => {
      const admin = await signedInAgent(...OPTICIAN);
      const back = await roundTrip(admin);
      const testCookie = admin.cookies.get("optigate_company_sign_in")!;
      const before = await written();
      const colleague = await db().user.create({
        data: {
          email: "colleague-admin@demo.test",
          companyId: COMPANY,
          role: "admin",
          givenName: "Carl",
          familyName: "Kollege",
          passwordHash: (await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } })).passwordHash,
        },
      });
      const others = {
        "another administrator of the company": await signedInAgent(colleague.email, OPTICIAN[1]),
        "another company's administrator": lensAdmin,
        "a user": await signedInAgent("supplier@demo.test", "Supplier#2026"),
        "a visitor": new UserAgent(),
      };
      for (const [who, agent] of Object.entries(others)) {
        agent.cookies.set("optigate_company_sign_in", testCookie);
        const response = await agent.get("sso-callback", back);
        expect([response.status, outcomeOf(response)], who).toEqual([403, undefined]);
        expect(
          response.headers.getSetCookie().some((c) => c.startsWith("optigate_company_sign_in=;")),
          who,
        ).toBe(true);
        expect(
          response.headers.getSetCookie().some((c) => c.startsWith("optigate_session=")),
          who,
        ).toBe(false);
      }
      await db().user.update({ where: { email: OPTICIAN[0] }, data: { role: "user" } });
      expect((await admin.get("sso-callback", back)).status).toBe(403);
      await db().user.update({ where: { email: OPTICIAN[0] }, data: { role: "admin" } });
      expect(await written()).toEqual(before);
    });

    it("turns sign-in at the provider and SSO only on and off, audited", async () => {
      const admin = await signedInAgent(...OPTICIAN);
      const state = async () => {
        const row = await db().companySso.findUniqueOrThrow({ where: { companyId: COMPANY } });
        return [row.enabled, row.ssoOnly];
      };
      const steps: [string, boolean[]][] = [
        ["enable", [true, false]],
        ["sso-only-on", [true, true]],
        ["sso-only-off", [true, false]],
        ["disable", [false, false]],
      ];
      for (const [action, expected] of steps) {
        const { response, outcome } = await post(admin, { action });
        expect([response.headers.get("location"), outcome], action).toEqual([
          "/portal/company#company-sso",
          { action },
        ]);
        expect(await state(), action).toEqual(expected);
      }
      expect((await auditOf("company.sso_enabled")).map((event) => JSON.parse(event.details))).toEqual([
        { companyId: COMPANY, enabled: true },
      ]);
      expect(await auditOf("company.sso_disabled")).toHaveLength(1);
      expect((await auditOf("company.sso_only_changed")).map((event) => JSON.parse(event.details).ssoOnly)).toEqual([
        true,
        false,
      ]);
    });
  });

  describe("email domains", () => {
    let dns: Awaited<ReturnType<typeof startDnsServer>>;
    const records = new Map<string, string[][]>();
    beforeAll(async () => {
      dns = await startDnsServer(records);
    });
    afterAll(() => dns.close());

    /** Posts the form with the DNS lookup going to the test's server. */
    const postWithDns = (agent: UserAgent, form: Record<string, string>) =>
      postCompanySso(agent, form, { dnsLookup: dnsTxtLookup({ servers: [dns.server], timeoutMs: 2000 }) });

    it("claims a domain with the DNS record to create, verifies it by that record, and gives it up, audited", async () => {
      const admin = await signedInAgent(...OPTICIAN);
      const added = await post(admin, { action: "domain-add", domain: " Optik-Demo.EXAMPLE " });
      expect([added.response.headers.get("location"), added.outcome]).toEqual([
        "/portal/company#sso-domains",
        { action: "domain-add", domain: "optik-demo.example" },
      ]);
      const [domain] = (await companySsoView(await actorOf(admin)))!.domains;
      expect(domain).toMatchObject({ domain: "optik-demo.example", verified: false });
      expect(domain.dns_record).toMatchObject({ name: "_optigate-challenge.optik-demo.example", type: "TXT" });

      const early = await postWithDns(admin, { action: "domain-verify", domain: "optik-demo.example" });
      expect(early.outcome).toMatchObject({
        action: "domain-verify",
        problem: "no_record",
        domain: "optik-demo.example",
      });
      records.set("_optigate-challenge.optik-demo.example", [["optigate-domain-verification=wrong"]]);
      expect(
        (await postWithDns(admin, { action: "domain-verify", domain: "optik-demo.example" })).outcome,
      ).toMatchObject({
        problem: "wrong_value",
      });
      records.set("_optigate-challenge.optik-demo.example", [[domain.dns_record!.value]]);
      const verified = await postWithDns(admin, { action: "domain-verify", domain: "optik-demo.example" });
      expect(verified.outcome).toEqual({ action: "domain-verify", domain: "optik-demo.example" });
      expect((await companySsoView(await actorOf(admin)))!.domains[0]).toMatchObject({
        verified: true,
        verified_by: "dns",
      });
      expect((await auditOf("company.domain_added")).map((event) => JSON.parse(event.details).domain)).toContain(
        "optik-demo.example",
      );
      expect(await auditOf("company.domain_verified")).toHaveLength(1);

      // The test connection now finds the address in a verified domain.
      const report = outcomeOf(await admin.get("sso-callback", await roundTrip(admin)))?.test;
      expect(report).toMatchObject({ ok: true, emailDomainVerified: true });

      const removed = await post(admin, { action: "domain-remove", domain: "optik-demo.example" });
      expect(removed.outcome).toEqual({ action: "domain-remove", domain: "optik-demo.example" });
      expect(await db().companyDomain.count({ where: { domain: "optik-demo.example" } })).toBe(0);
      expect(await auditOf("company.domain_removed")).toHaveLength(1);
    });

    it("refuses a name that is no domain, another company's verified domain, and a domain the company does not hold", async () => {
      const admin = await signedInAgent(...OPTICIAN);
      await post(admin, { action: "domain-add", domain: "held.example" });
      const held = (await companySsoView(await actorOf(admin)))!.domains.find((each) => each.domain === "held.example");
      records.set("_optigate-challenge.held.example", [[held!.dns_record!.value]]);
      expect((await postWithDns(admin, { action: "domain-verify", domain: "held.example" })).outcome).toEqual({
        action: "domain-verify",
        domain: "held.example",
      });
      const before = await written();
      const cases: [UserAgent, Record<string, string>, string, string?][] = [
        [admin, { action: "domain-add", domain: "not a domain" }, "invalid_domain", "domain"],
        [admin, { action: "domain-add", domain: "192.0.2.1" }, "invalid_domain", "domain"],
        [lensAdmin, { action: "domain-add", domain: "held.example" }, "domain_taken", "domain"],
        [lensAdmin, { action: "domain-verify", domain: "held.example" }, "domain_not_found"],
        [lensAdmin, { action: "domain-remove", domain: "held.example" }, "domain_not_found"],
        [admin, { action: "domain-remove", domain: "unclaimed.example" }, "domain_not_found"],
      ];
      for (const [agent, form, problem, field] of cases) {
        const { outcome } = await postWithDns(agent, form);
        expect(outcome, JSON.stringify(form)).toMatchObject({
          action: form.action,
          problem,
          ...(field ? { field } : {}),
        });
        // Who holds a domain is the operator's to know.
        expect(JSON.stringify(outcome)).not.toContain(COMPANY);
      }
      expect(await written()).toEqual(before);
    });
  });
});
