import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { MAX_FAILURES } from "@/lib/session/login-throttle";
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
  await db.user.create({ data: { email, givenName: "T", familyName: "User", companyId: company.id, active, passwordHash: await hashPassword(password) } });
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
    const audit = await service().database.db.auditEvent.findFirst({ where: { type: "sign_in.succeeded", userId: session.userId } });
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
    expect(errorOf(await new UserAgent().login(returnUrl, "inactive@demo.test", "Inactive#2026"))).toBe("account_disabled");
  });

  it("asks for both fields and refuses redirects to other hosts", async () => {
    expect(errorOf(await new UserAgent().login(returnUrl, "optician@demo.test", ""))).toBe("missing_fields");
    const response = await new UserAgent().login("//evil.example/steal", "optician@demo.test", "Optician#2026");
    expect(response.headers.get("location")).toBe("/");
  });

  it(`throttles an account after ${MAX_FAILURES.account} failures, whatever the password, with the same answer for unknown accounts`, async () => {
    await addUser("throttled@demo.test", "Right#2026");
    for (let attempt = 0; attempt < MAX_FAILURES.account; attempt++) {
      expect(errorOf(await new UserAgent().login(returnUrl, "throttled@demo.test", "wrong"))).toBe("invalid_credentials");
      expect(errorOf(await new UserAgent().login(returnUrl, "ghost@demo.test", "wrong"))).toBe("invalid_credentials");
    }
    const blocked = await new UserAgent().login(returnUrl, "throttled@demo.test", "Right#2026");
    expect(errorOf(blocked)).toBe("throttled");
    expect(new URL(blocked.headers.get("location")!, ISSUER).searchParams.get("minutes")).toBe("15");
    expect(errorOf(await new UserAgent().login(returnUrl, "ghost@demo.test", "wrong"))).toBe("throttled");
    // Other accounts are not affected by one account's lock.
    expect((await new UserAgent().login(returnUrl, "optician@demo.test", "Optician#2026")).headers.get("location")).toBe(returnUrl);
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
    expect(row.failures).toBe(MAX_FAILURES.address);
    await db.loginThrottle.deleteMany();
  });
});
