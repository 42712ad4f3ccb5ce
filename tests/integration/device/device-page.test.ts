/**
 * /device's forms (RFC 8628 §5.1, §5.4): a visitor signs in first; a session that owes its company's second factor
 * gives it first, and the device then carries the mfa level; user codes are typed loosely but guessed within limits
 * per session, per network and for everyone, counted before the lookup so that concurrent guesses cannot pass them; the
 * confirmation belongs to the session that entered the code, and its form is CSRF-protected.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { USER_CODE_GUESS_LIMITS } from "@/lib/config/policy";
import { hashPassword } from "@/lib/crypto/password";
import { hashToken } from "@/lib/crypto/tokens";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { deviceRequestView } from "@/lib/rights/device-approval";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { enrolAuthenticatorApp } from "../../helpers/authenticator-app";
import { UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { decide, deviceCodes, enterCode, landing, poll } from "./device-steps";

const service = useOAuthService();
const db = () => service().database.db;
const PASSWORD = "device owner pass phrase";

let networks = 0;
/** A person signed in from a network of their own (each guess limit starts afresh). */
async function person(email = "optician@demo.test", password = "Optician#2026"): Promise<UserAgent> {
  const agent = new UserAgent("en", `100.64.${++networks}.7`);
  const response = await agent.login("/", email, password);
  expect(response.headers.get("location")).toBe("/");
  return agent;
}

const errorOf = (response: Response) => landing(response).searchParams.get("error");
/** A code of the right shape that no request has (the alphabet has no A, E, I, O, U or Y). */
const wrongCode = (index: number) => `BCDF-${"GHJKLMNPQRSTVWXZ"[index % 16]}GHJ`;
const pending = async (deviceCode: string) =>
  (await db().deviceAuthorization.findUniqueOrThrow({ where: { deviceCodeHash: hashToken(deviceCode) } })).status;

describe(`entering a user code at /device on ${testProvider()}`, () => {
  // The tests are one person's: each starts with that account's wrong codes uncounted (its own test is a unit's).
  beforeEach(() => db().loginThrottle.deleteMany({ where: { key: { startsWith: "device-guess-account:" } } }));

  it("sends a visitor to sign in first, back to /device with the code", async () => {
    const response = await enterCode(new UserAgent(), "BCDF-GHJK");
    expect(response.status).toBe(303);
    expect(landing(response).pathname).toBe("/login");
    expect(landing(response).searchParams.get("returnUrl")).toBe("/device?user_code=BCDF-GHJK");
  });

  it("takes the code in any case, with spaces or without the dash", async () => {
    const agent = await person();
    for (const typed of [(code: string) => code.toLowerCase(), (code: string) => ` ${code.replace("-", " ")} `]) {
      const { user_code: code } = await deviceCodes();
      expect(landing(await enterCode(agent, typed(code))).searchParams.get("request")).toBeTruthy();
    }
  });

  it("refuses what cannot be a code without counting it as a guess", async () => {
    const agent = await person();
    for (const typed of ["BCD", "AEIO-UYAE", "BCDF-GHJK-LMNP"])
      expect(errorOf(await enterCode(agent, typed))).toBe("malformed");
    expect(
      await db().loginThrottle.count({ where: { key: { startsWith: "device-guess-session:" }, failures: { gt: 0 } } }),
    ).toBe(0);
  });

  it("lets a session guess five wrong codes, then refuses even the right one for a while", async () => {
    const agent = await person();
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.session; guess++)
      expect(errorOf(await enterCode(agent, wrongCode(guess)))).toBe("wrong_code");
    const { user_code: code } = await deviceCodes();
    const locked = await enterCode(agent, code);
    expect(errorOf(locked)).toBe("throttled");
    expect(landing(locked).searchParams.get("minutes")).toBe("15");
    // Another session of the same person, from another network, is not locked.
    expect(landing(await enterCode(await person(), code)).searchParams.get("request")).toBeTruthy();
  });

  it("counts concurrent guesses before looking them up: of twelve at once, five are looked up", async () => {
    const agent = await person();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => enterCode(agent, wrongCode(index))));
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === "wrong_code")).toHaveLength(USER_CODE_GUESS_LIMITS.session);
    expect(errors.filter((error) => error === "throttled")).toHaveLength(12 - USER_CODE_GUESS_LIMITS.session);
  });

  it("limits a network's wrong guesses across its sessions", async () => {
    const address = "100.64.200.9";
    const sessions = await Promise.all(
      [1, 2, 3].map(async () => {
        const agent = new UserAgent("en", address);
        await agent.login("/", "optician@demo.test", "Optician#2026");
        return agent;
      }),
    );
    const errors: (string | null)[] = [];
    for (const [index, agent] of [...sessions, ...sessions, ...sessions, ...sessions].entries())
      errors.push(errorOf(await enterCode(agent, wrongCode(index))));
    expect(errors.slice(0, USER_CODE_GUESS_LIMITS.address)).toEqual(
      Array(USER_CODE_GUESS_LIMITS.address).fill("wrong_code"),
    );
    expect(errors.slice(USER_CODE_GUESS_LIMITS.address)).toEqual(["throttled", "throttled"]);
  });

  it("locks code entry for everyone once the wrong guesses of all callers reach their limit", async () => {
    const now = new Date();
    await db().loginThrottle.upsert({
      where: { key: "device-guess-everyone" },
      create: { key: "device-guess-everyone", failures: USER_CODE_GUESS_LIMITS.everyone - 1, windowStartedAt: now },
      update: { failures: USER_CODE_GUESS_LIMITS.everyone - 1, windowStartedAt: now, lockedUntil: null },
    });
    try {
      expect(errorOf(await enterCode(await person(), wrongCode(0)))).toBe("wrong_code");
      const { user_code: code } = await deviceCodes();
      expect(errorOf(await enterCode(await person(), code))).toBe("throttled");
    } finally {
      await db().loginThrottle.delete({ where: { key: "device-guess-everyone" } });
    }
  });

  it("does not count a right code, nor one that was decided already, which it names as expired", async () => {
    const agent = await person();
    const { user_code: code } = await deviceCodes();
    await decide(await person(), code, "deny");
    for (let entry = 0; entry < USER_CODE_GUESS_LIMITS.session + 2; entry++)
      expect(errorOf(await enterCode(agent, code))).toBe("expired");
    const fresh = await deviceCodes();
    expect(landing(await enterCode(agent, fresh.user_code)).searchParams.get("request")).toBeTruthy();
  });

  it("shows which application asks, when, from which network, and whether that is the person's own", async () => {
    const agent = await person();
    const codes = await deviceCodes({}, { "x-forwarded-for": "203.0.113.50" });
    const ticket = landing(await enterCode(agent, codes.user_code)).searchParams.get("request")!;
    const actor = await actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE));
    const view = await deviceRequestView(actor, ticket, "de", "203.0.113.7");
    expect(view).toMatchObject({
      clientName: "Demo-Schleifautomat",
      network: "203.0.113.0/24",
      sameNetwork: true,
      user: { name: "Olivia Optik", email: "optician@demo.test" },
    });
    expect(Date.now() - view!.requestedAt.getTime()).toBeLessThan(60_000);
    expect(view!.scopes.map((scope) => [scope.name, scope.required])).toEqual([
      ["openid", true],
      ["profile", false],
      ["offline_access", false],
      ["platform.catalogs.read", false],
    ]);
    expect(view!.scopes[3].title).toBe("Kataloge lesen");
    expect((await deviceRequestView(actor, ticket, "en", "198.51.100.7"))!.sameNetwork).toBe(false);
    const other = await actorOfSessionCookie(getServiceContext(), (await person()).cookies.get(SESSION_COOKIE));
    expect(await deviceRequestView(other, ticket, "en", "203.0.113.7")).toBeUndefined();
  });

  it("leaves the confirmation to the session that entered the code", async () => {
    const [first, second] = [await person(), await person()];
    const codes = await deviceCodes();
    const ticket = landing(await enterCode(first, codes.user_code)).searchParams.get("request")!;
    const decision = await second.post("device", "/interaction/device", {
      request: ticket,
      decision: "allow",
      scope: "openid",
    });
    expect(errorOf(decision)).toBe("expired");
    expect(await pending(codes.device_code)).toBe("pending");
  });

  it("refuses a decision without the page's CSRF token", async () => {
    const agent = await person();
    const codes = await deviceCodes();
    const ticket = landing(await enterCode(agent, codes.user_code)).searchParams.get("request")!;
    const forged = await agent.post("device", "/interaction/device", {
      request: ticket,
      decision: "allow",
      [CSRF_FIELD]: "forged",
    });
    expect(errorOf(forged)).toBe("form_expired");
    expect(await pending(codes.device_code)).toBe("pending");
  });
});

describe(`the second factor a company requires, at /device on ${testProvider()}`, () => {
  const COMPANY = "device-mfa-company";
  let counter = 0;
  async function newUser(): Promise<string> {
    const email = `device-${++counter}-${Date.now()}@example.com`;
    const passwordHash = await hashPassword(PASSWORD);
    await db().user.create({ data: { email, givenName: "Mia", familyName: "Mfa", companyId: COMPANY, passwordHash } });
    return email;
  }

  beforeAll(async () => {
    await db().company.create({
      data: { id: COMPANY, name: "Optik MFA", kind: "eye_care_professional", requireSecondFactor: true },
    });
  });
  afterAll(async () => {
    await db().deviceAuthorization.deleteMany({ where: { user: { companyId: COMPANY } } });
  });

  it("sends a password-only session to set up a factor first, and takes no code from it", async () => {
    const agent = new UserAgent();
    const login = await agent.login("/", await newUser(), PASSWORD);
    expect(login.headers.get("location")).toMatch(/^\/portal\/security\?enrol=required/);
    const codes = await deviceCodes();
    const entered = await enterCode(agent, codes.user_code);
    expect(landing(entered).pathname).toBe("/portal/security");
    expect(Object.fromEntries(landing(entered).searchParams)).toEqual({
      enrol: "required",
      returnUrl: `/device?user_code=${codes.user_code}`,
    });
    expect(await pending(codes.device_code)).toBe("pending");
  });

  it("lets the person in after the second step, and the device's tokens carry the mfa level", async () => {
    const email = await newUser();
    const enrolling = new UserAgent();
    await enrolling.login("/", email, PASSWORD);
    const { codes: recovery } = await enrolAuthenticatorApp(enrolling, PASSWORD);
    const device = await deviceCodes();
    const returnUrl = `/device?user_code=${device.user_code}`;
    const agent = new UserAgent();
    const login = await agent.login(returnUrl, email, PASSWORD);
    expect(login.headers.get("location")).toMatch(/^\/login\/second-factor\?/);
    const step = await agent.post("second-factor", "/interaction/second-factor", { code: recovery[0], returnUrl });
    expect(step.headers.get("location")).toBe(returnUrl);
    expect(landing(await decide(agent, device.user_code, "allow")).searchParams.get("done")).toBe("approved");
    const body = await (await poll(device.device_code)).json();
    expect(decodeJwt(body.id_token)).toMatchObject({
      acr: "urn:optigate:acr:mfa",
      amr: expect.arrayContaining(["mfa"]),
    });
    expect(decodeJwt(body.access_token)).toMatchObject({ acr: "urn:optigate:acr:mfa" });
  });
});
