import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();

async function silentLogin(form: Record<string, string>, headers: Record<string, string> = {}) {
  const { POST } = await import("@/app/services/login/SilentLogin/route");
  return POST(formRequest("/services/login/SilentLogin", form, headers));
}

async function userAccessToken(scope: string): Promise<string> {
  const { code } = await authorizeWithConsent(new UserAgent(), {
    client_id: demoWeb.client_id,
    redirect_uri: demoWeb.redirect_uri,
    response_type: "code",
    scope,
    state: "s",
    prompt: "consent",
  });
  return (
    await (
      await call(
        "token",
        formRequest(
          "/connect/token",
          { grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri },
          { Authorization: basic(demoWeb.client_id, demoWeb.secret) },
        ),
      )
    ).json()
  ).access_token;
}

describe(`POST /services/login/SilentLogin on ${testProvider()}`, () => {
  it("hands out a GUID ticket for valid credentials and stores only its hash", async () => {
    const response = await silentLogin({ username: "optician@demo.test", password: "Optician#2026" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { ticket } = await response.json();
    const row = await service().database.db.ticket.findUniqueOrThrow({ where: { ticketHash: hashToken(ticket) } });
    expect(row.ticketHash).not.toContain(ticket);
  });

  it("answers bad credentials with 401 and missing ones with 400", async () => {
    expect((await silentLogin({ username: "optician@demo.test", password: "wrong" })).status).toBe(401);
    expect((await silentLogin({ username: "nobody@demo.test", password: "wrong" })).status).toBe(401);
    expect((await silentLogin({})).status).toBe(400);
  });

  it("gives a ticket for the user of an access token holding the catalogs read scope, and nothing otherwise", async () => {
    const withScope = await silentLogin(
      {},
      { Authorization: `Bearer ${await userAccessToken("openid platform.catalogs.read")}` },
    );
    expect(withScope.status).toBe(200);
    const { ticket } = await withScope.json();
    const row = await service().database.db.ticket.findUniqueOrThrow({
      where: { ticketHash: hashToken(ticket) },
      include: { user: true },
    });
    expect(row.user.email).toBe("optician@demo.test");

    const withoutScope = await silentLogin({}, { Authorization: `Bearer ${await userAccessToken("openid profile")}` });
    expect(withoutScope.status).toBe(403);
    expect((await withoutScope.json()).error).toBe("insufficient_scope");
    expect((await silentLogin({}, { Authorization: "Bearer garbage" })).status).toBe(401);

    const cc = await (
      await call(
        "token",
        formRequest(
          "/connect/token",
          { grant_type: "client_credentials" },
          { Authorization: basic("demo-backend", "demo-backend-secret") },
        ),
      )
    ).json();
    expect((await silentLogin({}, { Authorization: `Bearer ${cc.access_token}` })).status).toBe(403);
  });
});

describe(`SilentLogin's limits on ${testProvider()}`, () => {
  it("checks at most 5 of 40 simultaneous wrong passwords for one account", async () => {
    const db = service().database.db;
    await db.loginThrottle.deleteMany();
    const statuses = (
      await Promise.all(
        Array.from({ length: 40 }, () => silentLogin({ username: "supplier@demo.test", password: "wrong" })),
      )
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    expect((await silentLogin({ username: "supplier@demo.test", password: "Supplier#2026" })).status).toBe(429);
    await db.loginThrottle.deleteMany();
  });

  it("stores nothing of an overlong user name, and refuses a body over 64 KB with 413", async () => {
    const db = service().database.db;
    const [audit, throttles] = [await db.auditEvent.count(), await db.loginThrottle.count()];
    expect((await silentLogin({ username: "u".repeat(60_000), password: "wrong" })).status).toBe(401);
    const huge = await silentLogin({ username: "u".repeat(20 * 1024 * 1024), password: "wrong" });
    expect(huge.status).toBe(413);
    expect([await db.auditEvent.count(), await db.loginThrottle.count()]).toEqual([audit, throttles]);
  });
});
