/**
 * Every way into a browser session passes the sign-in notice step, told of where it ends in a session and not before:
 * after the second factor (not after the password alone), a passkey on its own, a company's provider (whose new
 * person's first sign-in, like an accepted invitation's, is remembered and not told of). A password reset's sign-in is
 * in not-me.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { runAdmin } from "../../helpers/admin-cli";
import { enrolAuthenticatorApp } from "../../helpers/authenticator-app";
import { registerCompanyProvider } from "../../helpers/company-provider";
import { SoftAuthenticator } from "../../helpers/soft-authenticator";
import { freshBrowser, PASSWORD, signIn, useNoticeMail } from "../../helpers/sign-in-notices";
import { testProvider } from "../../helpers/test-database";
import { signInAtUpstream, startUpstreamIdp, type UpstreamIdp } from "../../helpers/upstream-idp";

process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const db = () => service().database.db;
const mail = useNoticeMail(db);
const operatorCompany = async () => (await db().company.findFirstOrThrow({ where: { kind: "operator" } })).id;
const knowsSomeone = (response: Response) =>
  response.headers.getSetCookie().some((cookie) => cookie.startsWith("optigate_browser="));

const SSO_COMPANY = "notice-sso-optics";
const DOMAIN = "notice-sso.example";
const REDIRECT_URI = `${ISSUER}/login/sso/callback`;
let upstream: UpstreamIdp;

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // node-oidc-provider warns about its development pages
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  const account = (name: string) => ({ email: `${name}@${DOMAIN}`, email_verified: true, given_name: name });
  upstream = await startUpstreamIdp({
    redirectUri: REDIRECT_URI,
    clients: [{ clientId: "optigate", secret: "optigate-secret" }],
    accounts: { [`sam@${DOMAIN}`]: account("sam") },
  });
  await db().company.create({
    data: { id: SSO_COMPANY, name: "Notice SSO Optics", kind: "eye_care_professional", signInNotices: true },
  });
  const provider = { issuer: upstream.issuer, domain: DOMAIN, clientId: "optigate", clientSecret: "optigate-secret" };
  await registerCompanyProvider(SSO_COMPANY, provider);
});
afterAll(async () => upstream?.close());

const passkey = (agent: UserAgent, form: Record<string, string>) => agent.post("passkey", "/interaction/passkey", form);

describe(`the ways into a session, told of on ${testProvider()}`, () => {
  it("tell of a sign-in with a second factor once the factor is given, not after the password alone", async () => {
    const person = await mail.newPerson(await operatorCompany());
    const { codes } = await enrolAuthenticatorApp(await signIn(person.email), PASSWORD);
    expect(await mail.noticesTo(person.email)).toBe(1);
    const browser = freshBrowser();
    const password = await browser.login("/", person.email, PASSWORD);
    expect(password.headers.get("location")).toMatch(/^\/login\/second-factor\?/);
    expect(knowsSomeone(password)).toBe(false);
    expect(await mail.noticesTo(person.email)).toBe(1);
    const factor = await browser.post("second-factor", "/interaction/second-factor", {
      code: codes[0],
      returnUrl: "/",
    });
    expect(factor.headers.get("location")).toBe("/");
    expect(knowsSomeone(factor)).toBe(true);
    expect(await mail.noticesTo(person.email)).toBe(2);
  });

  it("tell of a sign-in with a passkey alone", async () => {
    const person = await mail.newPerson(await operatorCompany());
    const owner = await signIn(person.email);
    const authenticator = new SoftAuthenticator(ISSUER, new URL(ISSUER).hostname);
    const options = await (
      await passkey(owner, { action: "register-options", step: "sign-in", current_password: PASSWORD })
    ).json();
    const registered = await passkey(owner, {
      action: "register",
      step: "sign-in",
      current_password: PASSWORD,
      name: "Laptop",
      response: authenticator.register(options),
    });
    expect(registered.status).toBe(200);

    const browser = freshBrowser();
    const challenge = await (await passkey(browser, { action: "options", step: "sign-in" })).json();
    const signedIn = await passkey(browser, {
      action: "verify",
      step: "sign-in",
      response: authenticator.assert(challenge),
    });
    expect(await signedIn.json()).toEqual({ next: "/portal" });
    expect(browser.cookies.get(SESSION_COOKIE)).toBeDefined();
    expect(knowsSomeone(signedIn)).toBe(true);
    expect(await mail.noticesTo(person.email)).toBe(2);
  });

  it("tell of a sign-in at the company's provider, but not of its new person's first one", async () => {
    const throughProvider = async (browser: UserAgent) => {
      const first = await browser.post("login", "/interaction/login", { username: `sam@${DOMAIN}`, returnUrl: "/" });
      const back = await signInAtUpstream(first.headers.get("location")!, REDIRECT_URI, { login: `sam@${DOMAIN}` });
      const answer = await browser.get("sso-callback", `${back.pathname}${back.search}`);
      expect(answer.headers.get("location")).toBe("/");
      return answer;
    };
    const made = await throughProvider(freshBrowser());
    expect(await db().user.count({ where: { email: `sam@${DOMAIN}` } })).toBe(1);
    expect(knowsSomeone(made)).toBe(true);
    expect(await mail.noticesTo(`sam@${DOMAIN}`)).toBe(0);
    await throughProvider(freshBrowser());
    expect(await mail.noticesTo(`sam@${DOMAIN}`)).toBe(1);
    const [notice] = await mail.delivered(`sam@${DOMAIN}`);
    expect(notice.text).toContain("Browser: Firefox 131 · Linux");
  });

  it("remember an accepted invitation's browser without telling of it: the account's first sign-in", async () => {
    const company = await operatorCompany();
    const email = `invited-${Date.now()}@example.com`;
    const invited = await runAdmin(db(), ["users", "invite", email, "--company", company]);
    const token = new URL(JSON.parse(invited.stdout).invitation_url).searchParams.get("token")!;
    const browser = freshBrowser();
    const joined = await browser.post("invitation", "/interaction/invitation", {
      token,
      given_name: "Ina",
      family_name: "Invited",
      password: PASSWORD,
    });
    expect(joined.status).toBe(303);
    expect(browser.cookies.get(SESSION_COOKIE)).toBeDefined();
    expect(knowsSomeone(joined)).toBe(true);
    expect(await mail.noticesTo(email)).toBe(0);
    await signIn(email, browser);
    expect(await mail.noticesTo(email)).toBe(0);
    await signIn(email);
    expect(await mail.noticesTo(email)).toBe(1);
  });
});
