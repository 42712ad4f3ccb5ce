// TEMPORARY security review probes: delete after use.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addCompanyDomain } from "@/lib/admin/company-domains";
import { setCompanySso } from "@/lib/admin/company-sso-registry";
import { passwordResetComposer, resetPassword } from "@/lib/account/password-reset";
import { hashPassword } from "@/lib/crypto/password";
import { handleSilentLogin } from "@/lib/catalog/silent-login";
import { COMPANY_SSO_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { LINK_PAGES } from "@/lib/http/link-token-cookies";
import { openMailBody } from "@/lib/mail/outbox";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { STANDARD_CLAIMS } from "@/lib/store/models/company-sso";
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import {
  call,
  demoWeb,
  formRequest,
  ISSUER,
  pkcePair,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { signInAtUpstream, startUpstreamIdp, type UpstreamIdp } from "../../helpers/upstream-idp";

process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const FRAMES = "demo-company-frames";
const LENS = "demo-company-lens";
const DOMAIN = "rev-frames.example";
const REDIRECT_URI = `${ISSUER}/login/sso/callback`;
const acct = (email: string) => ({ [email]: { email, email_verified: true, given_name: email.split("@")[0] } });

const service = useOAuthService();
const db = () => service().database.db;
let upstream: UpstreamIdp;
let fake: Server;
let fakeOrigin = "";
const captured: (string | undefined)[] = [];

const loc = (r: Response) => new URL(r.headers.get("location")!, ISSUER);
const firstStep = (agent: UserAgent, username: string, returnUrl = "/") =>
  agent.post("login", "/interaction/login", { username, returnUrl });
async function viaCompany(agent: UserAgent, login: string, returnUrl = "/") {
  const first = await firstStep(agent, login, returnUrl);
  const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, { login });
  return agent.get("sso-callback", `${back.pathname}${back.search}`);
}
function outcomeOf(response: Response): CompanySsoOutcome | undefined {
  const cookie = response.headers.getSetCookie().find((each) => each.startsWith(`${COMPANY_SSO_COOKIE}=`));
  const value = cookie && decodeURIComponent(cookie.slice(COMPANY_SSO_COOKIE.length + 1).split(";")[0]);
  return unsealedCookieValue<CompanySsoOutcome>(COMPANY_SSO_COOKIE, value, SECRET_KEY);
}
async function newUser(email: string, companyId: string, password: string, role = "user") {
  await db().user.create({
    data: { email, givenName: "X", familyName: "Y", companyId, role, passwordHash: await hashPassword(password) },
  });
}

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  upstream = await startUpstreamIdp({
    redirectUri: REDIRECT_URI,
    clients: [{ clientId: "optigate", secret: "optigate-secret" }],
    accounts: { ...acct(`jit@${DOMAIN}`), ...acct(`pat@${DOMAIN}`), ...acct(`lou@${DOMAIN}`), ...acct(`bo@${DOMAIN}`) },
  });
  const { stores, config } = getServiceContext();
  await setCompanySso(
    stores,
    FRAMES,
    {
      issuer: upstream.issuer,
      clientId: "optigate",
      clientSecret: "optigate-secret",
      authMethod: "client_secret_basic",
      scope: "openid email profile",
      claims: STANDARD_CLAIMS,
      hostedDomain: null,
      tenantId: null,
      enabled: true,
    },
    { secretKey: config.secretKey, byOperator: true },
  );
  await addCompanyDomain(stores, FRAMES, DOMAIN, { byOperator: true, verified: true });
  // A minimal "provider" that records what OptiGate sends to its token endpoint.
  fake = createServer((req, res) => {
    const url = new URL(req.url!, fakeOrigin);
    const json = (status: number, body: object) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/.well-known/openid-configuration")
      return json(200, {
        issuer: fakeOrigin,
        authorization_endpoint: `${fakeOrigin}/auth`,
        token_endpoint: `${fakeOrigin}/token`,
        jwks_uri: `${fakeOrigin}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    if (url.pathname === "/jwks") return json(200, { keys: [] });
    if (url.pathname === "/token") {
      captured.push(req.headers.authorization);
      req.resume();
      return json(400, { error: "invalid_grant" });
    }
    json(404, {});
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  fakeOrigin = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await upstream?.close();
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

describe("review", () => {
  it("F1: SSO-only: the catalog SilentLogin still takes the password", async () => {
    await newUser(`pat@${DOMAIN}`, FRAMES, "Pat#Local2026pw");
    await getServiceContext().stores.companySso.setSsoOnly(FRAMES, true);
    try {
      const refused = await new UserAgent().login("/", `pat@${DOMAIN}`, "Pat#Local2026pw");
      expect(loc(refused).searchParams.get("error")).toBe("sso_only");
      const request = formRequest("/services/login/SilentLogin", {
        username: `pat@${DOMAIN}`,
        password: "Pat#Local2026pw",
      });
      const answer = await handleSilentLogin(request, getServiceContext());
      const body = await answer.json();
      console.log("F1 SilentLogin", answer.status, JSON.stringify(body));
      expect(answer.status).toBe(200);
      expect(body.ticket).toBeTruthy();
    } finally {
      await getServiceContext().stores.companySso.setSsoOnly(FRAMES, false);
    }
  });

  it("F2: SSO-only: a person signed in at the provider moves the address out of the domain and gets a password", async () => {
    const context = getServiceContext();
    await context.stores.companySso.setSsoOnly(FRAMES, true);
    try {
      const agent = new UserAgent();
      const signedIn = await viaCompany(agent, `jit@${DOMAIN}`);
      expect(signedIn.headers.get("location")).toBe("/");
      const asked = await agent.post("account", "/interaction/account", {
        action: "change-email",
        new_email: "jit.private@elsewhere.example",
      });
      console.log("F2 change-email", asked.status, asked.headers.get("location"));
      const [mail] = await db().outboxMessage.findMany({ where: { recipient: "jit.private@elsewhere.example" } });
      const token = new URL(
        openMailBody(SECRET_KEY, mail.sealedBody!).text.match(/https?:\/\/\S+\/email\/confirm\?\S+/)![0],
      ).searchParams.get("token")!;
      const confirmer = new UserAgent();
      confirmer.cookies.set(LINK_PAGES["/email/confirm"], token);
      const confirmed = await confirmer.post("email", "/interaction/email", {});
      console.log("F2 confirm", confirmed.headers.get("location"));
      const compose = passwordResetComposer(context);
      const resetMail = await compose({ recipient: "jit.private@elsewhere.example", language: "en", request: {} });
      expect(resetMail).not.toBeNull();
      const resetToken = new URL(/https?:\/\/\S+/.exec(resetMail!.text)![0]).searchParams.get("token")!;
      const reset = await resetPassword(context, resetToken, { password: "Quite#Another2026pass", language: "en" });
      console.log("F2 reset", JSON.stringify(reset));
      const login = await new UserAgent().login("/", "jit.private@elsewhere.example", "Quite#Another2026pass");
      console.log("F2 password login", login.status, login.headers.get("location"));
      const user = await db().user.findUniqueOrThrow({ where: { email: "jit.private@elsewhere.example" } });
      console.log("F2 user company", user.companyId);
      expect(login.headers.get("location")).toBe("/");
    } finally {
      await context.stores.companySso.setSsoOnly(FRAMES, false);
    }
  });

  it("F3: another company's SSO-only locks out a person of a third company whose address is in its domain", async () => {
    await newUser(`lou@${DOMAIN}`, LENS, "Lou#Elsewhere2026");
    const ok = await new UserAgent().login("/", `lou@${DOMAIN}`, "Lou#Elsewhere2026");
    console.log("F3 before", ok.headers.get("location"));
    await getServiceContext().stores.companySso.setSsoOnly(FRAMES, true);
    try {
      const refused = await new UserAgent().login("/", `lou@${DOMAIN}`, "Lou#Elsewhere2026");
      console.log("F3 password with SSO-only", refused.headers.get("location"));
      const viaSso = await viaCompany(new UserAgent(), `lou@${DOMAIN}`);
      console.log("F3 via the provider", viaSso.headers.get("location"));
      const mail = await passwordResetComposer(getServiceContext())({
        recipient: `lou@${DOMAIN}`,
        language: "en",
        request: {},
      });
      console.log("F3 reset mail", mail === null ? "none" : "sent");
    } finally {
      await getServiceContext().stores.companySso.setSsoOnly(FRAMES, false);
    }
  });

  it("F4: an unverified claim squats a domain for every other company, without a cap", async () => {
    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    const post = (agent: UserAgent, form: Record<string, string>) =>
      agent.post("company-sso", "/interaction/company/sso", form);
    const squat = await post(optician, { action: "domain-add", domain: "victim-corp.example" });
    console.log("F4 squat", JSON.stringify(outcomeOf(squat)));
    await newUser("boss@victim-lens.example", LENS, "Boss#Lens2026pw", "admin");
    const owner = await signedInAgent("boss@victim-lens.example", "Boss#Lens2026pw");
    const refused = await post(owner, { action: "domain-add", domain: "victim-corp.example" });
    console.log("F4 real owner", JSON.stringify(outcomeOf(refused)));
    expect(outcomeOf(refused)?.problem).toBe("domain_taken");
    for (let i = 0; i < 60; i++) await post(optician, { action: "domain-add", domain: `sq${i}-${"a".repeat(60)}.example` });
    console.log("F4 claims held", await db().companyDomain.count({ where: { companyId: "demo-company-optician" } }));
  });

  it("F5: the kept client secret goes to a new issuer the administrator types", async () => {
    const admin = await signedInAgent("optician@demo.test", "Optician#2026");
    const post = (form: Record<string, string>) => admin.post("company-sso", "/interaction/company/sso", form);
    const base = {
      action: "settings",
      client_id: "optigate-page",
      token_endpoint_auth_method: "client_secret_basic",
      scope: "openid email profile",
    };
    const first = await post({ ...base, issuer: upstream.issuer, client_secret: "S3cret-set-by-someone-else" });
    console.log("F5 first save", JSON.stringify(outcomeOf(first)));
    const moved = await post({ ...base, issuer: fakeOrigin, client_secret: "" });
    console.log("F5 moved, no secret typed", JSON.stringify(outcomeOf(moved)));
    // Only because this test's "attacker server" is on the loopback: in production it would be a public host.
    await db().companySso.update({ where: { companyId: "demo-company-optician" }, data: { registeredByOperator: true } });
    const started = await post({ action: "test" });
    const state = new URL(started.headers.get("location")!).searchParams.get("state")!;
    const back = await admin.get("sso-callback", `/login/sso/callback?code=anything&state=${state}`);
    console.log("F5 callback", back.status, JSON.stringify(outcomeOf(back)?.test));
    const header = captured.at(-1);
    const decoded = header ? Buffer.from(header.split(" ")[1], "base64").toString() : "";
    console.log("F5 attacker received Authorization:", decoded);
    expect(decoded).toContain("S3cret-set-by-someone-else");
  });

  it("F6: max_age of the relying party does not reach the provider", async () => {
    const returnUrl = `/connect/authorize?${new URLSearchParams({
      client_id: demoWeb.client_id,
      redirect_uri: demoWeb.redirect_uri,
      response_type: "code",
      scope: "openid",
      state: "s",
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256",
      max_age: "0",
    })}`;
    const first = await firstStep(new UserAgent(), `bo@${DOMAIN}`, returnUrl);
    const sent = new URL(first.headers.get("location")!);
    console.log("F6 sent", [...sent.searchParams.keys()].join(","));
    expect(sent.searchParams.get("max_age")).toBeNull();
    expect(sent.searchParams.get("prompt")).toBeNull();
  });

  it("G: odd inputs never 5xx", async () => {
    const statuses: string[] = [];
    const note = (label: string, r: Response) => statuses.push(`${label}:${r.status}`);
    const agent = new UserAgent();
    for (const username of ["a@", "@", "x@" + "a".repeat(300) + ".com", "x@xn--.com", "x@ä.com", "x@1.2.3.4", "\uFFFF@a.b", "x@[::1]"])
      note(`first:${username.slice(0, 12)}`, await firstStep(agent, username));
    const raw = (route: "login" | "company-sso", path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
      call(route, new Request(`${ISSUER}${path}`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", cookie: "", ...headers } }));
    note("login-bad-utf8", await raw("login", "/interaction/login", new Uint8Array([0x75, 0x3d, 0xff, 0xfe, 0x25])));
    note("login-nul", await raw("login", "/interaction/login", "username=a%00b"));
    note("login-huge", await raw("login", "/interaction/login", "username=" + "a".repeat(200_000)));
    const admin = await signedInAgent("optician@demo.test", "Optician#2026");
    const post = (form: Record<string, string>) => admin.post("company-sso", "/interaction/company/sso", form);
    for (const form of [
      { action: "settings" },
      { action: "settings", issuer: "x".repeat(5000), client_id: "c" },
      { action: "settings", issuer: "https://{tenantid}/v2.0", client_id: "c", tenant_id: "00000000-0000-0000-0000-000000000000" },
      { action: "settings", issuer: "https://e.example", client_id: "c", roles: "=\n__proto__=admin\nconstructor=admin" },
      { action: "settings", issuer: "https://e.example", client_id: "c", roles: "a=superuser" },
      { action: "settings", issuer: "https://e.example", client_id: "c\u0000", claim_email: "é" },
      { action: "settings", issuer: "https://e.example", client_id: "c", token_endpoint_auth_method: "none" },
      { action: "settings", issuer: "https://e.example", client_id: "c", client_secret: "s", token_endpoint_auth_method: "private_key_jwt" },
      { action: "domain-add", domain: "" },
      { action: "domain-add", domain: "x".repeat(10_000) },
      { action: "domain-verify", domain: "nope.example" },
      { action: "domain-remove", domain: "ä.ä" },
      { action: "enable" },
      { action: "test" },
      { action: "nope" },
    ])
      note(`sso:${form.action}:${JSON.stringify(form).length}`, await post(form as Record<string, string>));
    for (const q of ["", "?code=x", "?error=access_denied&state=a", "?state=" + "a".repeat(20000), "?iss=a&iss=b"])
      note(`cb:${q.slice(0, 20)}`, await new UserAgent().get("sso-callback", `/login/sso/callback${q}`));
    for (const hint of ["ä.example", "x".repeat(5000), "%", "a..b", DOMAIN])
      note(
        `start:${hint.slice(0, 10)}`,
        await new UserAgent().get(
          "sso-start",
          `/login/sso/start?${new URLSearchParams({ returnUrl: `/connect/authorize?idp_hint=${encodeURIComponent(hint)}` })}`,
        ),
      );
    note("start:noreturn", await new UserAgent().get("sso-start", "/login/sso/start?returnUrl=%E0%A4%A"));
    const logout = (body: string) =>
      call("sso-backchannel-logout", new Request(`${ISSUER}/login/sso/backchannel-logout`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }));
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    for (const token of [
      "a.b.c",
      `${enc({ alg: "ES256" })}.${enc({ iss: 5 })}.x`,
      `${enc({ alg: "ES256" })}.${enc({ iss: upstream.issuer, aud: { a: 1 } })}.x`,
      `${enc({ alg: "ES256" })}.${enc({ iss: upstream.issuer, aud: "optigate" })}.x`,
      `${enc({ alg: "none" })}.${enc({ iss: upstream.issuer, aud: "optigate" })}.`,
      `${enc({ alg: "HS256", kid: "upstream-1" })}.${enc({ iss: upstream.issuer, aud: ["optigate"] })}.AAAA`,
    ])
      note(`bcl:${token.slice(0, 10)}`, await logout(`logout_token=${token}`));
    note("bcl-two", await logout("logout_token=a&logout_token=b"));
    console.log("G", statuses.join(" "));
    expect(statuses.filter((s) => /:5\d\d$/.test(s))).toEqual([]);
  });
});
