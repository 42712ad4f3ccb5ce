import { MAX_FAILURES } from "@/lib/config/policy";
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const returnUrl = `/connect/authorize?${new URLSearchParams({ client_id: "demo-web", redirect_uri: "http://localhost:4000/callback", response_type: "code", scope: "openid", state: "s" })}`;

function errorOf(response: Response): string | null {
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location")!, ISSUER).searchParams.get("error");
}

async function addUser(email: string, password: string, active = true) {
  const db = service().database.db;
  const company = await db.company.findFirstOrThrow({ where: { kind: "eye_care_professional" } });
  await db.user.create({
    data: {
      email,
      givenName: "T",
      familyName: "User",
      companyId: company.id,
      active,
      passwordHash: await hashPassword(password),
    },
  });
}

describe(`POST /interaction/login on ${testProvider()}`, () => {
  it("starts a login session with a safe cookie and continues the flow with 303", async () => {
    const agent = new UserAgent();
    const response = await agent.login(returnUrl, " Optician@Demo.Test ", "Optician#2026");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(returnUrl);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("optigate_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http here
    const session = await service().database.db.loginSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(session.tokenHash).not.toBe(agent.cookies.get("optigate_session"));
    const audit = await service().database.db.auditEvent.findFirst({
      where: { type: "sign_in.succeeded", userId: session.userId },
    });
    expect(audit).not.toBeNull();
  });

  it("answers a wrong password and an unknown account alike", async () => {
    const wrong = await new UserAgent().login(returnUrl, "supplier@demo.test", "nope");
    const unknown = await new UserAgent().login(returnUrl, "nobody@demo.test", "nope");
    expect(errorOf(wrong)).toBe("invalid_credentials");
    expect(errorOf(unknown)).toBe("invalid_credentials");
    expect(wrong.headers.getSetCookie().some((c) => c.startsWith("optigate_session="))).toBe(false);
  });

  it("refuses an inactive user even with the right password", async () => {
    await addUser("inactive@demo.test", "Inactive#2026", false);
    expect(errorOf(await new UserAgent().login(returnUrl, "inactive@demo.test", "Inactive#2026"))).toBe(
      "account_disabled",
    );
  });

  it("takes the email address alone as a first step and asks for the password next, never signing in", async () => {
    const agent = new UserAgent();
    const first = await agent.post("login", "/interaction/login", { username: " Optician@Demo.test ", returnUrl });
    expect(first.status).toBe(303);
    const next = new URL(first.headers.get("location")!, ISSUER);
    expect([next.pathname, next.searchParams.get("step"), next.searchParams.get("returnUrl")]).toEqual([
      "/login",
      "password",
      returnUrl,
    ]);
    const remembered = first.headers.getSetCookie().find((c) => c.startsWith("optigate_login_username="));
    expect(decodeURIComponent(remembered!.split(";")[0])).toBe("optigate_login_username=optician@demo.test");
    expect(first.headers.getSetCookie().some((c) => c.startsWith("optigate_session="))).toBe(false);
    const blank = await new UserAgent().post("login", "/interaction/login", { username: "", returnUrl });
    expect(errorOf(blank)).toBe("missing_email");
    expect(new URL(blank.headers.get("location")!, ISSUER).searchParams.get("step")).toBeNull();
  });

  it("asks for both fields and refuses redirects to other hosts", async () => {
    expect(errorOf(await new UserAgent().login(returnUrl, "optician@demo.test", ""))).toBe("missing_fields");
    const response = await new UserAgent().login("//evil.example/steal", "optician@demo.test", "Optician#2026");
    // A return address that is not OptiGate's own leads home instead.
    expect(response.headers.get("location")).toBe("/portal");
  });

  it.each(["/.//evil.com", "/%2e//evil.com", "/..//evil.com"])(
    "refuses a return URL whose dot segments collapse into another host: %s",
    async (returnUrl) => {
      expect(
        (await new UserAgent().login(returnUrl, "optician@demo.test", "Optician#2026")).headers.get("location"),
      ).toBe("/portal");
    },
  );

  it(`throttles an account after ${MAX_FAILURES.account} failures, whatever the password, with the same answer for unknown accounts`, async () => {
    await addUser("throttled@demo.test", "Right#2026");
    for (let attempt = 0; attempt < MAX_FAILURES.account; attempt++) {
      expect(errorOf(await new UserAgent().login(returnUrl, "throttled@demo.test", "wrong"))).toBe(
        "invalid_credentials",
      );
      expect(errorOf(await new UserAgent().login(returnUrl, "ghost@demo.test", "wrong"))).toBe("invalid_credentials");
    }
    const blocked = await new UserAgent().login(returnUrl, "throttled@demo.test", "Right#2026");
    expect(errorOf(blocked)).toBe("throttled");
    expect(new URL(blocked.headers.get("location")!, ISSUER).searchParams.get("minutes")).toBe("15");
    expect(errorOf(await new UserAgent().login(returnUrl, "ghost@demo.test", "wrong"))).toBe("throttled");
    // Other accounts are not affected by one account's lock.
    expect(
      (await new UserAgent().login(returnUrl, "optician@demo.test", "Optician#2026")).headers.get("location"),
    ).toBe(returnUrl);
  });

  it(`throttles an address after ${MAX_FAILURES.address} failures across accounts`, async () => {
    const db = service().database.db;
    await db.loginThrottle.deleteMany();
    const agent = new UserAgent();
    for (let attempt = 0; attempt < MAX_FAILURES.address; attempt++) {
      await agent.login(returnUrl, `spray${attempt}@demo.test`, "wrong");
    }
    expect(errorOf(await agent.login(returnUrl, "optician@demo.test", "Optician#2026"))).toBe("throttled");
    const row = await db.loginThrottle.findUniqueOrThrow({ where: { key: "address:198.51.100.7" } });
    // Every attempt is counted when it is made, the refused one too.
    expect(row.failures).toBe(MAX_FAILURES.address + 1);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    await db.loginThrottle.deleteMany();
  });
});

describe(`sign-in throttling under concurrency on ${testProvider()}`, () => {
  it(`checks at most ${MAX_FAILURES.account} of 40 simultaneous wrong passwords for one account, and the right one is refused after them`, async () => {
    const db = service().database.db;
    await db.loginThrottle.deleteMany();
    await addUser("burst@demo.test", "Right#2026");
    const user = await db.user.findUniqueOrThrow({ where: { email: "burst@demo.test" } });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => new UserAgent().login(returnUrl, "burst@demo.test", "wrong")),
    );
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === "invalid_credentials")).toHaveLength(MAX_FAILURES.account);
    expect(errors.filter((error) => error === "throttled")).toHaveLength(40 - MAX_FAILURES.account);
    expect(await db.auditEvent.count({ where: { type: "sign_in.failed", userId: user.id } })).toBe(
      MAX_FAILURES.account,
    );
    expect(errorOf(await new UserAgent().login(returnUrl, "burst@demo.test", "Right#2026"))).toBe("throttled");
    await db.loginThrottle.deleteMany();
  });

  it("lets a burst that includes the right password check no more passwords than the limit", async () => {
    const db = service().database.db;
    await db.loginThrottle.deleteMany();
    await addUser("burst2@demo.test", "Right#2026");
    const user = await db.user.findUniqueOrThrow({ where: { email: "burst2@demo.test" } });
    const passwords = [...Array.from({ length: 39 }, () => "wrong"), "Right#2026"];
    await Promise.all(passwords.map((password) => new UserAgent().login(returnUrl, "burst2@demo.test", password)));
    const checked = await db.auditEvent.count({
      where: { userId: user.id, type: { in: ["sign_in.failed", "sign_in.succeeded"] } },
    });
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(MAX_FAILURES.account);
    await db.loginThrottle.deleteMany();
  });

  it(`checks at most ${MAX_FAILURES.address} simultaneous attempts from one address across accounts`, async () => {
    const db = service().database.db;
    await db.loginThrottle.deleteMany();
    const before = await db.auditEvent.count({ where: { type: "sign_in.failed" } });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => new UserAgent().login(returnUrl, `wave${index}@demo.test`, "wrong")),
    );
    expect(answers.map(errorOf).filter((error) => error === "invalid_credentials")).toHaveLength(MAX_FAILURES.address);
    expect((await db.auditEvent.count({ where: { type: "sign_in.failed" } })) - before).toBe(MAX_FAILURES.address);
    await db.loginThrottle.deleteMany();
  });

  it("lets a throttled address neither check, nor count against, nor create counters for accounts", async () => {
    const db = service().database.db;
    await db.loginThrottle.deleteMany();
    const attacker = () => new UserAgent("en", "203.0.113.66");
    for (let attempt = 0; attempt < MAX_FAILURES.address; attempt++)
      await attacker().login(returnUrl, `spray${attempt}@demo.test`, "wrong");
    const rows = await db.loginThrottle.count();
    for (let attempt = 0; attempt < 10; attempt++)
      expect(errorOf(await attacker().login(returnUrl, "optician@demo.test", "wrong"))).toBe("throttled");
    for (let attempt = 0; attempt < 10; attempt++)
      expect(errorOf(await attacker().login(returnUrl, `new${attempt}@demo.test`, "wrong"))).toBe("throttled");
    expect(await db.loginThrottle.count()).toBe(rows);
    expect(
      (await new UserAgent("en", "203.0.113.77").login(returnUrl, "optician@demo.test", "Optician#2026")).headers.get(
        "location",
      ),
    ).toBe(returnUrl);
    await db.loginThrottle.deleteMany();
  });

  it("writes nothing for a user name longer than any email address", async () => {
    const db = service().database.db;
    const [audit, throttles] = [await db.auditEvent.count(), await db.loginThrottle.count()];
    const response = await new UserAgent().login(returnUrl, `${"x".repeat(60_000)}@demo.test`, "wrong");
    expect(errorOf(response)).toBe("invalid_credentials");
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("optigate_login_username="))).toBe(false);
    expect([await db.auditEvent.count(), await db.loginThrottle.count()]).toEqual([audit, throttles]);
  });
});
