/**
 * The authenticator app, recovery codes and the second step: enrolment confirmed with a first code,
 * codes that count once and only in their time window, recovery codes used once, attempts throttled; step-up for
 * acr_values; a company's requirement leading to enrolment and to RFC 9470 on the platform API; the ways around the
 * second factor closed (a password reset, SilentLogin); removing the last factor; the operator's reset.
 */
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { securityView } from "@/lib/rights/second-factors";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { runAdmin } from "../../helpers/admin-cli";
import { hashToken } from "@/lib/crypto/tokens";
import { openMailBody } from "@/lib/mail/outbox";
import {
  formRequest,
  ISSUER,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { api, userToken, userTokens } from "../../helpers/platform-api";
import { enrolAuthenticatorApp } from "../../helpers/authenticator-app";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const PASSWORD = "authenticator owner phrase";
const MFA = "urn:optigate:acr:mfa";

let counter = 0;
async function newUser(companyId = "demo-company-optician"): Promise<string> {
  const email = `codes-${++counter}-${Date.now()}@example.com`;
  await db().user.create({
    data: { email, givenName: "Tom", familyName: "Totp", companyId, passwordHash: await hashPassword(PASSWORD) },
  });
  return email;
}

const security = (agent: UserAgent, form: Record<string, string>) =>
  agent.post("security", "/interaction/security", form);
const secondStep = (agent: UserAgent, code: string, returnUrl = "/portal/applications") =>
  agent.post("second-factor", "/interaction/second-factor", { code, returnUrl });

/** Sets up the app for a new user: the app (to make codes with), their email and the recovery codes shown. */
async function withApp(companyId?: string) {
  const email = await newUser(companyId);
  const agent = await signedInAgent(email, PASSWORD);
  return { email, agent, ...(await enrolAuthenticatorApp(agent, PASSWORD)) };
}

/** A password sign-in that stops at the second step. */
async function atSecondStep(email: string): Promise<UserAgent> {
  const agent = new UserAgent();
  const login = await agent.login("/portal/applications", email, PASSWORD);
  expect(login.headers.get("location")).toBe("/login/second-factor?returnUrl=%2Fportal%2Fapplications");
  return agent;
}

describe(`the authenticator app on ${testProvider()}`, () => {
  it("is set up with a first code, audited, with ten recovery codes, and its secret is sealed at rest", async () => {
    const { email, codes } = await withApp();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const user = await db().user.findUniqueOrThrow({ where: { email }, include: { totpFactor: true } });
    expect(user.totpFactor).toMatchObject({ confirmedAt: expect.any(Date) });
    expect(user.totpFactor!.sealedSecret).not.toMatch(/^[A-Z2-7]{32}$/);
    expect(await db().auditEvent.count({ where: { userId: user.id, type: "user.totp_enabled" } })).toBe(1);
  });

  it("takes a code once, in its window only, of six digits; the wrong ones are refused and counted", async () => {
    const { email, app } = await withApp();
    const agent = await atSecondStep(email);
    const refused = async (code: string) =>
      new URL(`http://x${(await secondStep(agent, code)).headers.get("location")}`).searchParams.get("error");
    for (const code of ["12345", "1234567", "abcdef", app.generate({ timestamp: Date.now() - 120_000 })])
      expect(await refused(code), code).toBe("wrong_code");
    // The code of the step after the one that confirmed the app (the window allows one step either way).
    const code = app.generate({ timestamp: Date.now() + 30_000 });
    expect((await secondStep(agent, code)).headers.get("location")).toBe("/portal/applications");
    const session = await db().loginSession.findFirstOrThrow({
      where: { user: { email } },
      orderBy: { createdAt: "desc" },
    });
    expect(JSON.parse(session.amr)).toEqual(["pwd", "otp", "mfa"]);
    // The same code again, in another sign-in: its time step is used.
    const again = await atSecondStep(email);
    const replay = await secondStep(again, code);
    expect(replay.headers.get("location")).toMatch(/error=wrong_code/);
    const { id: userId } = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await db().auditEvent.count({ where: { userId, type: "user.second_factor_failed" } })).toBe(5);
  });

  it("stops a guesser: five wrong codes lock the account's sign-in for a while, without a 5xx", async () => {
    const { email, app } = await withApp();
    const agent = await atSecondStep(email);
    const answers = [];
    for (let attempt = 0; attempt < 7; attempt++)
      answers.push((await secondStep(agent, "000000")).headers.get("location"));
    expect(answers.at(-1)).toMatch(/error=throttled&minutes=\d+/);
    expect((await secondStep(agent, app.generate())).headers.get("location")).toMatch(/error=throttled/);
  });

  it("lets a recovery code in once, typed in any case and with spaces", async () => {
    const { email, codes } = await withApp();
    const agent = await atSecondStep(email);
    expect((await secondStep(agent, ` ${codes[0].toLowerCase().replace(/-/g, " ")} `)).headers.get("location")).toBe(
      "/portal/applications",
    );
    const again = await atSecondStep(email);
    expect((await secondStep(again, codes[0])).headers.get("location")).toMatch(/error=wrong_code/);
  });

  it("makes SilentLogin refuse a password alone", async () => {
    const { email } = await withApp();
    const { POST } = await import("@/app/services/login/SilentLogin/route");
    const silent = await POST(formRequest("/services/login/SilentLogin", { username: email, password: PASSWORD }));
    expect(silent.status).toBe(403);
    expect(await silent.json()).toMatchObject({ error: "second_factor_required" });
  });

  it("mails the owner when the app is added or removed and when recovery codes are renewed", async () => {
    const { email, agent } = await withApp();
    expect((await security(agent, { action: "recovery-renew" })).headers.get("location")).toMatch(
      /done=recovery-renew/,
    );
    expect((await security(agent, { action: "totp-remove" })).headers.get("location")).toMatch(/done=totp-remove/);
    const notices = await db().outboxMessage.findMany({
      where: { recipient: email, kind: "second_factor_changed" },
      orderBy: { createdAt: "asc" },
    });
    expect(notices.map((notice) => notice.subject)).toEqual(
      Array(3).fill("The second factors of your OptiGate account changed"),
    );
    const texts = notices.map((notice) => openMailBody(SECRET_KEY, notice.sealedBody!).text);
    expect(texts[0]).toContain("An authenticator app was just set up");
    expect(texts[1]).toContain("New recovery codes were just made");
    expect(texts[2]).toContain("The authenticator app was just removed");
    for (const text of texts) expect(text).toContain(`${ISSUER}/password/forgot?ui_locales=en`);
  });

  it("shows and confirms a waiting app only in the session that started it, for 15 minutes", async () => {
    const email = await newUser();
    const starter = await signedInAgent(email, PASSWORD);
    const other = await signedInAgent(email, PASSWORD);
    await security(starter, { action: "totp-start", current_password: PASSWORD });
    const actorOf = (agent: UserAgent) => actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE));
    expect((await securityView(await actorOf(other))).enrolment).toBeUndefined();
    const { enrolment } = await securityView(await actorOf(starter));
    const app = new TOTP({ secret: Secret.fromBase32(enrolment!.secret), digits: 6, period: 30 });
    expect((await security(other, { action: "totp-confirm", code: app.generate() })).headers.get("location")).toMatch(
      /error=wrong_code/,
    );
    await db().totpFactor.updateMany({
      where: { user: { email } },
      data: { createdAt: new Date(Date.now() - 16 * 60_000) },
    });
    expect((await securityView(await actorOf(starter))).totp).toBe("off");
    expect((await security(starter, { action: "totp-confirm", code: app.generate() })).headers.get("location")).toMatch(
      /error=wrong_code/,
    );
    expect(await db().totpFactor.count({ where: { user: { email }, confirmedAt: { not: null } } })).toBe(0);
  });

  it("changes the factors only after a second factor given in the last five minutes", async () => {
    const { email, app, agent } = await withApp();
    await db().loginSession.updateMany({
      where: { user: { email } },
      data: { authTime: new Date(Date.now() - 600_000) },
    });
    for (const action of ["totp-remove", "recovery-renew", "totp-start"])
      expect((await security(agent, { action, current_password: PASSWORD })).headers.get("location"), action).toMatch(
        /error=second_factor_needed/,
      );
    // The second step, taken in this session, counts for five minutes.
    const confirmed = await secondStep(agent, app.generate({ timestamp: Date.now() + 30_000 }), "/portal/security");
    expect(confirmed.headers.get("location")).toBe("/portal/security");
    await db().company.update({ where: { id: "demo-company-optician" }, data: { requireSecondFactor: true } });
    try {
      expect((await security(agent, { action: "totp-remove" })).headers.get("location")).toMatch(/error=last_factor/);
    } finally {
      await db().company.update({ where: { id: "demo-company-optician" }, data: { requireSecondFactor: false } });
    }
    expect((await security(agent, { action: "totp-remove" })).headers.get("location")).toMatch(/done=totp-remove/);
    expect(await db().totpFactor.count({ where: { user: { email } } })).toBe(0);
    // The recovery codes went with the last factor: none stands in for a factor that is not there.
    expect(await db().recoveryCode.count({ where: { user: { email } } })).toBe(0);
  });

  it("sets up the first factor only with the current password, however fresh the sign-in", async () => {
    const email = await newUser();
    const agent = await signedInAgent(email, PASSWORD);
    expect((await security(agent, { action: "totp-start" })).headers.get("location")).toMatch(/error=password_needed/);
    expect(
      (await security(agent, { action: "totp-start", current_password: "wrong" })).headers.get("location"),
    ).toMatch(/error=wrong_current_password/);
    expect(
      (await security(agent, { action: "totp-start", current_password: PASSWORD })).headers.get("location"),
    ).toMatch(/done=totp-start/);
  });

  it("keeps counting wrong codes across sign-ins with the right password", async () => {
    const { email } = await withApp();
    for (let round = 0; round < 2; round++) {
      const agent = await atSecondStep(email);
      for (let attempt = 0; attempt < 2; attempt++) await secondStep(agent, "000000");
    }
    const last = await atSecondStep(email);
    expect((await secondStep(last, "000000")).headers.get("location")).toMatch(/error=wrong_code/);
    // Five wrong codes in all: the account's sign-in is locked, the password included.
    expect((await new UserAgent().login("/", email, PASSWORD)).headers.get("location")).toMatch(/error=throttled/);
  });
});

describe(`step-up and a company's requirement on ${testProvider()}`, () => {
  const authorize = (agent: UserAgent, extra: Record<string, string> = {}) =>
    agent.authorize({
      client_id: "demo-web",
      redirect_uri: "http://localhost:4000/callback",
      response_type: "code",
      scope: "openid",
      state: "s",
      ...extra,
    });

  it("asks a password-only session for the second factor when an application asks for the mfa level", async () => {
    const { email, app } = await withApp();
    // A session from before the app was set up: a password alone.
    const passwordOnly = new UserAgent();
    await db().loginSession.create({
      data: {
        tokenHash: hashToken("password-only-session"),
        userId: (await db().user.findUniqueOrThrow({ where: { email } })).id,
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    passwordOnly.cookies.set(SESSION_COOKIE, "password-only-session");
    const stepUp = await authorize(passwordOnly, { acr_values: MFA });
    const location = stepUp.headers.get("location")!;
    expect(location).toMatch(/^\/login\/second-factor\?returnUrl=%2Fconnect%2Fauthorize%3F/);
    const returnUrl = new URL(`http://x${location}`).searchParams.get("returnUrl")!;
    const next = app.generate({ timestamp: Date.now() + 30_000 });
    expect((await secondStep(passwordOnly, next, returnUrl)).headers.get("location")).toBe(returnUrl);
    const { id_token } = await userTokens(email, PASSWORD, "openid", passwordOnly);
    expect(decodeJwt(id_token!)).toMatchObject({ acr: MFA, amr: ["pwd", "otp", "mfa"] });
  });

  it("leads a required company's people to enrol, and the API asks for the mfa level (RFC 9470)", async () => {
    // A token from before the company required it: a password alone.
    const passwordToken = await userToken("optician@demo.test", "Optician#2026", "platform.supplierreg.readwrite");
    const required = await runAdmin(db(), ["companies", "require-second-factor", "demo-company-optician", "on"]);
    expect(required.code, required.stderr).toBe(0);
    try {
      const email = await newUser();
      const agent = new UserAgent();
      const login = await agent.login("/portal/applications", email, PASSWORD);
      expect(login.headers.get("location")).toBe("/portal/security?enrol=required&returnUrl=%2Fportal%2Fapplications");
      expect((await authorize(agent)).headers.get("location")).toMatch(/^\/login\/second-factor\?/);
      const refused = await api("PATCH", "/v2/supplierregistrations/unknown-id", {
        token: passwordToken,
        body: { status: "withdrawn" },
        headers: { "if-match": '"1"' },
      });
      expect(refused.response.status).toBe(401);
      expect(refused.response.headers.get("www-authenticate")).toMatch(
        /error="insufficient_user_authentication".*acr_values="urn:optigate:acr:mfa"/,
      );
    } finally {
      await runAdmin(db(), ["companies", "require-second-factor", "demo-company-optician", "off"]);
    }
  });

  it("is set by the company's administrators for their company only, and by operators", async () => {
    const toggle = (agent: UserAgent, required: "on" | "off", companyId?: string) =>
      agent.post("company", "/interaction/company", {
        action: "second-factor",
        required,
        ...(companyId ? { company_id: companyId } : {}),
      });
    const requires = async (id: string) =>
      (await db().company.findUniqueOrThrow({ where: { id } })).requireSecondFactor;
    const plainUser = await signedInAgent(await newUser(), PASSWORD);
    expect((await toggle(plainUser, "on")).status).toBe(403);
    const administrator = await signedInAgent("optician@demo.test", "Optician#2026");
    expect((await toggle(administrator, "on", "demo-company-lens")).status).toBe(403);
    expect(await requires("demo-company-lens")).toBe(false);
    expect((await toggle(administrator, "on")).headers.get("location")).toBe(
      "/portal/company?secondFactor=on#second-factor-rule",
    );
    expect(await requires("demo-company-optician")).toBe(true);
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    expect((await toggle(operator, "off", "demo-company-optician")).headers.get("location")).toBe(
      "/admin/companies/demo-company-optician?secondFactor=off#second-factor-rule",
    );
    expect(await requires("demo-company-optician")).toBe(false);
  });

  it("lets the operator reset a user's factors, audited and told by mail", async () => {
    const { email } = await withApp();
    const reset = await runAdmin(db(), ["users", "reset-second-factor", email]);
    expect(JSON.parse(reset.stdout)).toEqual({ email, removed: 1, status: "second_factors_reset" });
    expect(await db().totpFactor.count({ where: { user: { email } } })).toBe(0);
    expect(await db().recoveryCode.count({ where: { user: { email } } })).toBe(0);
    expect(await db().outboxMessage.count({ where: { recipient: email, kind: "second_factors_reset" } })).toBe(1);
    const login = await new UserAgent().login("/portal/applications", email, PASSWORD);
    expect(login.headers.get("location")).toBe("/portal/applications");
  });
});
