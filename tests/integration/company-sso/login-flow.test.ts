/**
 * Company sign-in in the login flow (issue 46, CONTRACT §14), through the real route handlers on a real database and
 * a real upstream provider (node-oidc-provider on 127.0.0.1, reached under OUTBOUND_ALLOW as an operator's
 * registration may): the first step routes a verified domain to the company's provider with login_hint and PKCE; the
 * callback makes the user just in time in that company and continues the authorization request to its code; the
 * link is reused; the principal rule (a provider speaks only for its company's verified domains), no silent linking,
 * SSO-only, the provider down, a tampered answer or a lost cookie, and the upstream's mfa against the company's
 * second-factor rule.
 */
import { createServer } from "node:net";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addCompanyDomain } from "@/lib/admin/company-domains";
import { passwordResetComposer, resetPassword } from "@/lib/account/password-reset";
import { hashPassword } from "@/lib/crypto/password";
import { seal } from "@/lib/crypto/secret-box";
import { getServiceContext } from "@/lib/service-context";
import { signingKeyFor } from "@/lib/oauth/keys/signing-keys";
import { forgetUser } from "@/lib/store/user-store";
import { STANDARD_CLAIMS } from "@/lib/store/models/company-sso";
import {
  callbackParams,
  demoWeb,
  interactionOf,
  ISSUER,
  pkcePair,
  returnUrlOf,
  UserAgent,
  formRequest,
  SECRET_KEY,
  useOAuthService,
} from "../../helpers/oauth-service";
import { registerCompanyProvider } from "../../helpers/company-provider";
import { testProvider } from "../../helpers/test-database";
import { signInAtUpstream, startUpstreamIdp, type UpstreamIdp, type UpstreamPerson } from "../../helpers/upstream-idp";

process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const FRAMES = "demo-company-frames";
const DOWN = "demo-company-lens";
const DOMAIN = "frame-works.example";
const KEYED = "company-keyed-optics";
/** A company without a provider of its own. */
const ELSEWHERE = "company-elsewhere";
const KEYED_DOMAIN = "keyed-optics.example";
const REDIRECT_URI = `${ISSUER}/login/sso/callback`;
const person = (name: string, claims: Record<string, unknown> = {}) => ({
  [`${name}@${DOMAIN}`]: { email: `${name}@${DOMAIN}`, email_verified: true, given_name: name, ...claims },
});
const ACCOUNTS: Record<string, Record<string, unknown>> = {
  ...person("ada", { family_name: "Frame", groups: ["frame-admins"] }),
  ...person("pat"),
  ...person("mia"),
  ...person("ole"),
  ...person("lou"),
  ...person("lin"),
  ...person("kim", { given_name: "K".repeat(500), family_name: "Bell\u0007" }),
  "eve@elsewhere.example": { email: "eve@elsewhere.example", email_verified: true },
};

const service = useOAuthService();
let upstream: UpstreamIdp;
let keyed: UpstreamIdp;

const authorizeParams = () => ({
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid",
  state: "s",
  code_challenge: pkcePair().challenge,
  code_challenge_method: "S256",
});

/** A port on the loopback where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const CLAIMS = { ...STANDARD_CLAIMS, groups: "groups", roles: { "frame-admins": "admin" } };
const secretBasic = (issuer: string, domain: string) =>
  ({ issuer, domain, clientId: "optigate", clientSecret: "optigate-secret", claims: CLAIMS }) as const;

const location = (response: Response) => new URL(response.headers.get("location")!, ISSUER);
const loginError = (response: Response) => {
  expect(response.status).toBe(303);
  expect(location(response).pathname).toBe("/login");
  return location(response).searchParams.get("error");
};

/** The first step of the login form: the address alone. */
const firstStep = (agent: UserAgent, username: string, returnUrl = "/") =>
  agent.post("login", "/interaction/login", { username, returnUrl });

/** The first step, the provider's pages as `who`, and the callback: OptiGate's answer to it. */
async function signInThroughCompany(agent: UserAgent, who: UpstreamPerson, returnUrl = "/") {
  const first = await firstStep(agent, who.login, returnUrl);
  expect(first.status).toBe(303);
  const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, who);
  return agent.get("sso-callback", `${back.pathname}${back.search}`);
}

const userOf = (email: string) => service().database.db.user.findUnique({ where: { email } });

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // node-oidc-provider warns about its development pages
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  upstream = await startUpstreamIdp({
    redirectUri: REDIRECT_URI,
    clients: [{ clientId: "optigate", secret: "optigate-secret" }],
    accounts: ACCOUNTS,
  });
  await registerCompanyProvider(FRAMES, secretBasic(upstream.issuer, DOMAIN));
  await registerCompanyProvider(DOWN, secretBasic(`http://127.0.0.1:${await closedPort()}`, "lens-down.example"));
  const db = service().database.db;
  for (const id of [KEYED, ELSEWHERE])
    await db.company.create({ data: { id, name: id, kind: "eye_care_professional" } });
  // A provider that knows OptiGate by its published keys alone.
  const { stores, config } = getServiceContext();
  await signingKeyFor(stores.signingKeys, config.secretKey, "RS256");
  const { keys } = (await stores.signingKeys.keySet(config.secretKey)).jwks;
  keyed = await startUpstreamIdp({
    redirectUri: REDIRECT_URI,
    clients: [{ clientId: "optigate-keyed", authMethod: "private_key_jwt", jwks: { keys } }],
    accounts: { [`uma@${KEYED_DOMAIN}`]: { email: `uma@${KEYED_DOMAIN}`, email_verified: true } },
  });
  const keyedAuth = { clientId: "optigate-keyed", authMethod: "private_key_jwt", claims: CLAIMS } as const;
  await registerCompanyProvider(KEYED, { issuer: keyed.issuer, domain: KEYED_DOMAIN, ...keyedAuth });
});
afterAll(async () => Promise.all([upstream?.close(), keyed?.close()]));

describe(`company sign-in in the login flow on ${testProvider()}`, () => {
  it("sends a verified domain to the company's provider with login_hint, ui_locales and PKCE, in a sealed cookie", async () => {
    const response = await firstStep(new UserAgent("de"), ` Ada@${DOMAIN} `);
    expect(response.status).toBe(303);
    const sent = new URL(response.headers.get("location")!);
    expect(`${sent.origin}${sent.pathname}`).toBe(`${upstream.issuer}/auth`);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      client_id: "optigate",
      redirect_uri: REDIRECT_URI,
      login_hint: `ada@${DOMAIN}`,
      ui_locales: "de",
      code_challenge_method: "S256",
    });
    expect(sent.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("optigate_company_sign_in="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/login\/sso\/callback/);
    expect(cookie).toMatch(/Max-Age=900/);
    expect(cookie).not.toContain(sent.searchParams.get("state")!);
  });

  it("goes straight to the provider of the domain a relying party names in idp_hint, and asks otherwise", async () => {
    const start = (hint: string, request: Record<string, string> = authorizeParams()) => {
      const returnUrl = `/connect/authorize?${new URLSearchParams({ ...request, idp_hint: hint })}`;
      return new UserAgent().get("sso-start", `/login/sso/start?${new URLSearchParams({ returnUrl })}`);
    };
    const hinted = await start(DOMAIN.toUpperCase());
    expect(hinted.status).toBe(303);
    const sent = new URL(hinted.headers.get("location")!);
    expect(sent.origin).toBe(new URL(upstream.issuer).origin);
    expect(sent.searchParams.get("code_challenge_method")).toBe("S256");
    expect(hinted.headers.getSetCookie().some((cookie) => cookie.startsWith("optigate_company_sign_in="))).toBe(true);
    for (const other of ["lens-unknown.example", "not a domain"]) {
      const asked = await start(other);
      expect([asked.status, location(asked).pathname, location(asked).searchParams.get("hinted")]).toEqual([
        303,
        "/login",
        "1",
      ]);
      expect(asked.headers.getSetCookie()).toEqual([]);
    }
    // A hint in something that is no authorization request OptiGate would answer leads nowhere but the login page.
    const { redirect_uri: _registered, ...withoutRedirect } = authorizeParams();
    for (const forged of [
      {},
      withoutRedirect,
      { ...authorizeParams(), redirect_uri: "https://elsewhere.example/cb" },
    ]) {
      const asked = await start(DOMAIN, forged);
      expect(location(asked).pathname).toBe("/login");
      expect(asked.headers.getSetCookie()).toEqual([]);
    }
  });

  it("passes prompt=login, max_age and the request's ui_locales on from the authorization request behind", async () => {
    const sentFor = async (parameters: Record<string, string>) => {
      const returnUrl = `/connect/authorize?${new URLSearchParams({ ...authorizeParams(), ...parameters })}`;
      const sent = new URL((await firstStep(new UserAgent(), `ada@${DOMAIN}`, returnUrl)).headers.get("location")!);
      return ["prompt", "max_age", "ui_locales"].map((name) => sent.searchParams.get(name));
    };
    expect(await sentFor({ prompt: "login", ui_locales: "fr" })).toEqual(["login", null, "fr"]);
    expect(await sentFor({ max_age: "300" })).toEqual([null, "300", "en"]);
    expect(await sentFor({ max_age: "0" })).toEqual(["login", "0", "en"]);
    expect(await sentFor({ max_age: "soon" })).toEqual([null, null, "en"]);
  });

  it("makes the user just in time in the company and continues the authorization request to its code", async () => {
    const agent = new UserAgent();
    const start = await agent.authorize(authorizeParams());
    const returnUrl = returnUrlOf(start);
    let response = await signInThroughCompany(agent, { login: `ada@${DOMAIN}` }, returnUrl);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(returnUrl);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("optigate_company_sign_in=;"))).toBe(true);
    const ada = await userOf(`ada@${DOMAIN}`);
    expect(ada).toMatchObject({ companyId: FRAMES, role: "admin", emailVerified: true, givenName: "ada" });
    expect(ada?.familyName).toBe("Frame");
    const session = await service().database.db.loginSession.findFirstOrThrow({ where: { userId: ada!.id } });
    expect(JSON.parse(session.amr)).toEqual(["fed"]);
    const audit = await service().database.db.auditEvent.findFirstOrThrow({
      where: { type: "sign_in.succeeded", userId: ada!.id },
    });
    expect(JSON.parse(audit.details)).toMatchObject({ method: "company_sso", companyId: FRAMES });

    response = await agent.authorizeUrl(response.headers.get("location")!);
    if (location(response).pathname === "/consent")
      response = await agent.consent(interactionOf(response), "allow", ["openid"]);
    expect(callbackParams(response).get("code")).toBeTruthy();
  });

  it("authenticates at a provider with OptiGate's own key (private_key_jwt), no secret stored", async () => {
    const response = await signInThroughCompany(new UserAgent(), { login: `uma@${KEYED_DOMAIN}` });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(await userOf(`uma@${KEYED_DOMAIN}`)).toMatchObject({ companyId: KEYED });
    const sso = await service().database.db.companySso.findUniqueOrThrow({ where: { companyId: KEYED } });
    expect(sso.clientSecretSealed).toBeNull();
  });

  it("signs the same person in again through the link, without a second user", async () => {
    const response = await signInThroughCompany(new UserAgent(), { login: `ada@${DOMAIN}` });
    expect(response.headers.get("location")).toBe("/");
    expect(await service().database.db.user.count({ where: { email: `ada@${DOMAIN}` } })).toBe(1);
    const links = await service().database.db.companySsoIdentity.findMany({ where: { subject: `ada@${DOMAIN}` } });
    expect(links).toHaveLength(1);
    expect(links[0].lastSignInAt).not.toBeNull();
  });

  it("asks for the password where the domain is not verified or has no company sign-in", async () => {
    const { stores } = getServiceContext();
    await addCompanyDomain(stores, FRAMES, "frames-unverified.example", { byOperator: true, verified: false });
    for (const address of ["kai@frames-unverified.example", "optician@demo.test"]) {
      const next = location(await firstStep(new UserAgent(), address));
      expect([next.pathname, next.searchParams.get("step")]).toEqual(["/login", "password"]);
    }
  });

  it("refuses an address outside the company's verified domains, whatever the provider says", async () => {
    // eve's own domain is no company's: the provider is asked for ada, and eve signs in there.
    const agent = new UserAgent();
    const first = await firstStep(agent, `ada@${DOMAIN}`);
    const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, {
      login: "eve@elsewhere.example",
    });
    expect(loginError(await agent.get("sso-callback", `${back.pathname}${back.search}`))).toBe(
      "sso_domain_not_verified",
    );
    expect(await userOf("eve@elsewhere.example")).toBeNull();
  });

  it("leaves out of the new account the names the people pages would refuse", async () => {
    const answer = await signInThroughCompany(new UserAgent(), { login: `kim@${DOMAIN}` });
    expect(answer.status).toBe(303);
    expect(await userOf(`kim@${DOMAIN}`)).toMatchObject({ givenName: "", familyName: "", companyId: FRAMES });
  });

  it("links an existing account of the company only after its password, never silently", async () => {
    const db = service().database.db;
    const pat = `pat@${DOMAIN}`;
    const passwordHash = await hashPassword("Pat#Local2026");
    await db.user.create({
      data: { email: pat, givenName: "Pat", familyName: "Local", companyId: FRAMES, passwordHash },
    });
    const links = () => db.companySsoIdentity.count({ where: { subject: pat } });
    const agent = new UserAgent();
    const offer = await signInThroughCompany(agent, { login: pat });
    expect(offer.status).toBe(303);
    const next = location(offer);
    expect([next.pathname, next.searchParams.get("step"), next.searchParams.get("notice")]).toEqual([
      "/login",
      "password",
      "sso_link",
    ]);
    expect(offer.headers.getSetCookie().some((c) => c.startsWith("optigate_session="))).toBe(false);
    expect(await links()).toBe(0);

    const login = (password: string) => agent.post("login", "/interaction/login", { username: pat, password });
    expect(loginError(await login("Wrong#Password1"))).toBe("invalid_credentials");
    expect(await links()).toBe(0);
    // The password alone, in a browser that did not come back from the provider, signs in and links nothing.
    const elsewhere = new UserAgent();
    await elsewhere.post("login", "/interaction/login", { username: pat, password: "Pat#Local2026" });
    expect(await links()).toBe(0);

    const linked = await login("Pat#Local2026");
    expect(linked.status).toBe(303);
    expect(linked.headers.get("location")).toBe("/portal");
    expect(linked.headers.getSetCookie().some((c) => c.startsWith("optigate_company_sso_link=;"))).toBe(true);
    expect(await links()).toBe(1);
    const user = await userOf(pat);
    const session = await db.loginSession.findFirstOrThrow({
      where: { userId: user!.id },
      orderBy: { createdAt: "desc" },
    });
    expect(JSON.parse(session.amr)).toEqual(["fed", "pwd"]);
    // The provider's sign-out reaches this session as any other it made.
    expect(session.upstreamIssuer).toBe(upstream.issuer);
    // From then on the provider alone signs Pat in.
    expect((await signInThroughCompany(new UserAgent(), { login: pat })).headers.get("location")).toBe("/");
    expect(await db.user.count({ where: { email: pat } })).toBe(1);
  });

  it("links an account with a second factor only once that factor is given too", async () => {
    const db = service().database.db;
    const lin = `lin@${DOMAIN}`;
    const passwordHash = await hashPassword("Lin#Local2026");
    const user = await db.user.create({
      data: { email: lin, givenName: "Lin", familyName: "Local", companyId: FRAMES, passwordHash },
    });
    const app = new TOTP({ secret: new Secret(), digits: 6, period: 30 });
    const sealedSecret = seal(app.secret.base32, SECRET_KEY, "totp-secret");
    await db.totpFactor.create({
      data: { userId: user.id, sealedSecret, createdAt: new Date(), confirmedAt: new Date() },
    });
    const links = () => db.companySsoIdentity.count({ where: { subject: lin } });
    const agent = new UserAgent();
    await signInThroughCompany(agent, { login: lin, amr: ["pwd", "mfa"] });
    const password = await agent.post("login", "/interaction/login", { username: lin, password: "Lin#Local2026" });
    expect(location(password).pathname).toBe("/login/second-factor");
    // The password alone linked nothing: a provider account with "mfa" gets no way past Lin's own factor.
    expect(await links()).toBe(0);
    const passed = await signInThroughCompany(new UserAgent(), { login: lin, amr: ["pwd", "mfa"] });
    expect(location(passed).searchParams.get("notice")).toBe("sso_link");
    const step = await agent.post("second-factor", "/interaction/second-factor", {
      code: app.generate(),
      returnUrl: "/",
    });
    expect(step.headers.get("location")).toBe("/");
    expect(await links()).toBe(1);
  });

  it("refuses an address whose account belongs to another company: the provider does not speak for it", async () => {
    const db = service().database.db;
    const lou = `lou@${DOMAIN}`;
    const passwordHash = await hashPassword("Lou#Elsewhere2026");
    await db.user.create({
      data: { email: lou, givenName: "Lou", familyName: "Other", companyId: ELSEWHERE, passwordHash },
    });
    // Lou's own address leads to the password (his company has no provider); someone at Frame Works' provider
    // answering for him is refused.
    const agent = new UserAgent();
    const first = await firstStep(agent, `ada@${DOMAIN}`);
    const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, { login: lou });
    const response = await agent.get("sso-callback", `${back.pathname}${back.search}`);
    expect(loginError(response)).toBe("sso_account_exists");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("optigate_company_sso_link="))).toBe(false);
    expect(await db.companySsoIdentity.count({ where: { subject: lou } })).toBe(0);
  });

  it("lets nobody in whom the provider or OptiGate deactivated, nor anyone of a deactivated company", async () => {
    const db = service().database.db;
    const ada = `ada@${DOMAIN}`;
    // At the provider: the account is gone, so the provider answers access_denied and OptiGate makes no session.
    const kept = ACCOUNTS[ada];
    delete ACCOUNTS[ada];
    try {
      const refused = await signInThroughCompany(new UserAgent(), { login: ada });
      expect(loginError(refused)).toBe("sso_denied");
      expect(refused.headers.getSetCookie().some((c) => c.startsWith("optigate_session="))).toBe(false);
    } finally {
      ACCOUNTS[ada] = kept;
    }
    // At OptiGate: the linked user deactivated, then the whole company.
    await db.user.update({ where: { email: ada }, data: { active: false } });
    forgetUser(); // the rows are changed behind the stores' backs
    expect(loginError(await signInThroughCompany(new UserAgent(), { login: ada }))).toBe("account_disabled");
    await db.user.update({ where: { email: ada }, data: { active: true } });
    forgetUser();
    await db.company.update({ where: { id: FRAMES }, data: { active: false } });
    try {
      const newcomer = await signInThroughCompany(new UserAgent(), { login: `mia@${DOMAIN}` });
      expect(loginError(newcomer)).toBe("account_disabled");
      expect(await userOf(`mia@${DOMAIN}`)).toBeNull();
    } finally {
      await db.company.update({ where: { id: FRAMES }, data: { active: true } });
    }
    expect((await signInThroughCompany(new UserAgent(), { login: ada })).headers.get("location")).toBe("/");
  });

  it("meets the company's second-factor rule with the provider's mfa, and asks to enrol without it", async () => {
    await service().database.db.company.update({ where: { id: FRAMES }, data: { requireSecondFactor: true } });
    try {
      const withMfa = await signInThroughCompany(new UserAgent(), { login: `mia@${DOMAIN}`, amr: ["pwd", "mfa"] });
      expect(withMfa.headers.get("location")).toBe("/");
      const mia = await userOf(`mia@${DOMAIN}`);
      const session = await service().database.db.loginSession.findFirstOrThrow({ where: { userId: mia!.id } });
      expect(JSON.parse(session.amr)).toEqual(["fed", "pwd", "mfa"]);
      const without = await signInThroughCompany(new UserAgent(), { login: `ole@${DOMAIN}` });
      expect(location(without).pathname).toBe("/portal/security");
      expect(location(without).searchParams.get("enrol")).toBe("required");
    } finally {
      await service().database.db.company.update({ where: { id: FRAMES }, data: { requireSecondFactor: false } });
    }
  });

  it("refuses a tampered answer and a callback without its cookie, back at the login page", async () => {
    const agent = new UserAgent();
    const first = await firstStep(agent, `ada@${DOMAIN}`);
    const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, { login: `ada@${DOMAIN}` });
    const stranger = await new UserAgent().get("sso-callback", `${back.pathname}${back.search}`);
    expect(loginError(stranger)).toBe("sso_expired");
    back.searchParams.set("state", "forged-state");
    expect(loginError(await agent.get("sso-callback", `${back.pathname}${back.search}`))).toBe("sso_refused");
    const forged = new UserAgent();
    forged.cookies.set("optigate_company_sign_in", "not-a-sealed-value");
    expect(loginError(await forged.get("sso-callback", "/login/sso/callback?code=x&state=y"))).toBe("sso_expired");
  });

  it("answers a provider that is down with the login page and sso_unreachable, never a 500", async () => {
    expect(loginError(await firstStep(new UserAgent(), "lou@lens-down.example"))).toBe("sso_unreachable");
  });

  it("refuses passwords and reset mail for an SSO-only domain, not for others", async () => {
    const context = getServiceContext();
    const compose = passwordResetComposer(context);
    const resetFor = (recipient: string) => compose({ recipient, language: "en", request: {} });
    const mailed = await resetFor(`pat@${DOMAIN}`);
    expect(mailed).not.toBeNull();
    const token = new URL(/https?:\/\/\S+/.exec(mailed!.text)![0]).searchParams.get("token")!;
    await context.stores.companySso.setSsoOnly(FRAMES, true);
    try {
      // A link mailed before the switch opens nothing now.
      const late = await resetPassword(context, token, { password: "Quite#Another2026pass", language: "en" });
      expect(late).toEqual({ closed: "unknown" });
      const refused = await new UserAgent().login("/", `pat@${DOMAIN}`, "Pat#Local2026");
      expect(loginError(refused)).toBe("sso_only");
      expect(location(refused).searchParams.get("step")).toBeNull();
      expect(await resetFor(`pat@${DOMAIN}`)).toBeNull();
      const other = await new UserAgent().login("/", "optician@demo.test", "Optician#2026");
      expect(other.headers.get("location")).toBe("/");
      // The catalog services' password form refuses it too.
      const { POST } = await import("@/app/services/login/SilentLogin/route");
      const silent = await POST(
        formRequest("/services/login/SilentLogin", { username: `pat@${DOMAIN}`, password: "Pat#Local2026" }),
      );
      expect([silent.status, (await silent.json()).error]).toEqual([403, "sso_only"]);
    } finally {
      await context.stores.companySso.setSsoOnly(FRAMES, false);
    }
  });

  it("follows an account's own company: a changed address stays SSO-only, another company's person is not", async () => {
    const context = getServiceContext();
    const db = service().database.db;
    const passwordHash = await hashPassword("Pia#Private2026");
    await db.user.create({
      data: { email: "pia@private.example", givenName: "Pia", familyName: "Frame", companyId: FRAMES, passwordHash },
    });
    await context.stores.companySso.setSsoOnly(FRAMES, true);
    try {
      // Frame Works' person with a private address: still only through the company's provider.
      expect(loginError(await new UserAgent().login("/", "pia@private.example", "Pia#Private2026"))).toBe("sso_only");
      const routed = location(await firstStep(new UserAgent(), "pia@private.example"));
      expect(routed.origin).toBe(new URL(upstream.issuer).origin);
      // Demo Lens's person with an address in Frame Works' domain: neither routed there nor locked out.
      const lou = `lou@${DOMAIN}`;
      const asked = location(await firstStep(new UserAgent(), lou));
      expect([asked.pathname, asked.searchParams.get("step")]).toEqual(["/login", "password"]);
      expect((await new UserAgent().login("/", lou, "Lou#Elsewhere2026")).headers.get("location")).toBe("/");
    } finally {
      await context.stores.companySso.setSsoOnly(FRAMES, false);
    }
  });
});
