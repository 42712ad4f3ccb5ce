/**
 * What /metrics counts of signing in, read through the real endpoint before and after real flows: password sign-ins
 * by result (the login form and SilentLogin), second steps by factor with each refused code or passkey and why, a
 * step-up's refusal that is no sign-in, and lock-outs counted once when they start, however many attempts race to
 * them, with the attempts they then refuse.
 */
import { describe, expect, it } from "vitest";
import { CLIENT_AUTH_LIMIT, MAX_FAILURES } from "@/lib/config/policy";
import { hashPassword } from "@/lib/crypto/password";
import { ROUTES } from "@/lib/server/routes";
import { enrolAuthenticatorApp } from "../../helpers/authenticator-app";
import { METRICS_TOKEN, metricsMovedBy } from "../../helpers/metrics-scrape";
import { basic, formRequest, ISSUER, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { SoftAuthenticator } from "../../helpers/soft-authenticator";
import { testProvider } from "../../helpers/test-database";

// Read when the service's configuration is first loaded, by the first request.
process.env.METRICS_TOKEN = METRICS_TOKEN;
const service = useOAuthService();
const PASSWORD = "metrics owner passphrase";
const [SIGN_INS, FAILURES, LOCKOUTS] = [
  "optigate_sign_ins_total",
  "optigate_second_factor_failures_total",
  "optigate_lockouts_total",
];

let users = 0;
async function newUser(active = true): Promise<string> {
  const email = `metrics-${++users}@example.com`;
  const data = { email, givenName: "Meta", familyName: "Tricks", companyId: "demo-company-optician", active };
  await service().database.db.user.create({ data: { ...data, passwordHash: await hashPassword(PASSWORD) } });
  return email;
}

/** A browser at an address of its own, so that only an account's throttle comes into play. */
let addresses = 0;
const browser = () => new UserAgent("en", `203.0.113.${++addresses}`);

const secondStep = (agent: UserAgent, code: string) =>
  agent.post("second-factor", "/interaction/second-factor", { code, returnUrl: "/portal/applications" });

/** A user with an authenticator app, and a browser of theirs at the second step. */
async function atSecondStep() {
  const email = await newUser();
  const enrolled = await enrolAuthenticatorApp(await signedInAgent(email, PASSWORD), PASSWORD);
  const agent = browser();
  return { email, agent, ...enrolled };
}

describe(`sign-in metrics on ${testProvider()}`, () => {
  it("count password sign-ins by result, on the login form and on SilentLogin", async () => {
    const [email, disabled] = [await newUser(), await newUser(false)];
    const silentLogin = () =>
      ROUTES["/services/login/SilentLogin"].POST(
        formRequest("/services/login/SilentLogin", { username: email, password: PASSWORD }),
      );
    const moved = await metricsMovedBy(async () => {
      expect((await browser().login("/", email, PASSWORD)).headers.get("location")).toBe("/");
      await browser().login("/", email, "wrong");
      await browser().login("/", "nobody@example.com", "wrong");
      await browser().login("/", disabled, PASSWORD);
      // Not an attempt: the form is refused before any credential is looked at.
      await browser().login("/", email, "");
      expect((await silentLogin()).status).toBe(200);
    });
    expect(moved(SIGN_INS)).toEqual({
      "factor=password,result=success": 2,
      "factor=password,result=bad_password": 1,
      "factor=password,result=unknown_user": 1,
      "factor=password,result=account_disabled": 1,
    });
    expect([moved(FAILURES), moved(LOCKOUTS)]).toEqual([{}, {}]);
  });

  it("count an account's lock-out once, however many wrong passwords race to it, and the attempts it refuses", async () => {
    const email = await newUser();
    const moved = await metricsMovedBy(async () => {
      await Promise.all(Array.from({ length: 40 }, () => browser().login("/", email, "wrong")));
      expect(new URL((await browser().login("/", email, PASSWORD)).headers.get("location")!, ISSUER).search).toMatch(
        /error=throttled/,
      );
    });
    expect(moved(SIGN_INS)).toEqual({
      "factor=password,result=bad_password": MAX_FAILURES.account,
      "factor=password,result=locked": 41 - MAX_FAILURES.account,
    });
    expect(moved(LOCKOUTS)).toEqual({ "cause=password,scope=account": 1 });
  });

  it("count a client's lock-out after its wrong secrets", async () => {
    const wrongSecret = () =>
      ROUTES["/connect/token"].POST(
        formRequest(
          "/connect/token",
          { grant_type: "client_credentials" },
          { authorization: basic("demo-backend", "wrong"), "x-forwarded-for": "192.0.2.77" },
        ),
      );
    const moved = await metricsMovedBy(async () => {
      for (let attempt = 0; attempt <= CLIENT_AUTH_LIMIT; attempt++) expect((await wrongSecret()).status).toBe(401);
    });
    expect(moved(LOCKOUTS)).toEqual({ "cause=client_authentication,scope=client": 1 });
  });

  it("count second steps by factor, each refused code by factor and reason, and no sign-in for a step-up", async () => {
    const { email, agent, app, codes } = await atSecondStep();
    const moved = await metricsMovedBy(async () => {
      await agent.login("/portal/applications", email, PASSWORD);
      await secondStep(agent, "12345");
      await secondStep(agent, "AAAA-BBBB-CCCC");
      // The code of the step after the one that confirmed the app.
      const right = await secondStep(agent, app.generate({ timestamp: Date.now() + 30_000 }));
      expect(right.headers.get("location")).toBe("/portal/applications");
      // Signed in now: this is a step-up of the session.
      expect((await secondStep(agent, "12345")).headers.get("location")).toMatch(/error=wrong_code/);
      const other = browser();
      await other.login("/portal/applications", email, PASSWORD);
      expect((await secondStep(other, codes[0])).headers.get("location")).toBe("/portal/applications");
    });
    expect(moved(SIGN_INS)).toEqual({
      "factor=password,result=second_factor_required": 2,
      "factor=totp,result=factor_failed": 1,
      "factor=recovery_code,result=factor_failed": 1,
      "factor=totp,result=success": 1,
      "factor=recovery_code,result=success": 1,
    });
    expect(moved(FAILURES)).toEqual({
      "factor=totp,reason=wrong_code": 2,
      "factor=recovery_code,reason=wrong_code": 1,
    });
    expect(moved(LOCKOUTS)).toEqual({});
  });

  it("count a lock-out by wrong codes once, and the codes refused while it holds", async () => {
    const { email, agent } = await atSecondStep();
    const moved = await metricsMovedBy(async () => {
      await agent.login("/portal/applications", email, PASSWORD);
      for (let attempt = 0; attempt < MAX_FAILURES.account; attempt++) await secondStep(agent, "12345");
      expect((await secondStep(agent, "12345")).headers.get("location")).toMatch(/error=throttled/);
    });
    expect(moved(SIGN_INS)).toEqual({
      "factor=password,result=second_factor_required": 1,
      "factor=totp,result=factor_failed": MAX_FAILURES.account,
      "factor=totp,result=locked": 1,
    });
    expect(moved(FAILURES)).toEqual({
      "factor=totp,reason=wrong_code": MAX_FAILURES.account,
      "factor=totp,reason=throttled": 1,
    });
    expect(moved(LOCKOUTS)).toEqual({ "cause=second_factor,scope=account": 1 });
  });

  it("count a passkey that is not registered as a refused sign-in", async () => {
    const agent = browser();
    const passkey = (form: Record<string, string>) =>
      agent.post("passkey", "/interaction/passkey", { step: "sign-in", ...form });
    const moved = await metricsMovedBy(async () => {
      const options = await (await passkey({ action: "options" })).json();
      const stranger = new SoftAuthenticator(ISSUER, new URL(ISSUER).hostname);
      const refused = await passkey({ action: "verify", response: stranger.assert(options) });
      expect(await refused.json()).toEqual({ error: "unknown_credential" });
    });
    expect(moved(SIGN_INS)).toEqual({ "factor=passkey,result=factor_failed": 1 });
    expect(moved(FAILURES)).toEqual({ "factor=passkey,reason=unknown_credential": 1 });
  });
});
