/** The purge removes what can never be used again, in bounded batches, and nothing that still can be. */
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { purgeExpired, purgeUntilDrained } from "@/lib/store/expired-rows-store";
import { runScript } from "../../helpers/run-script";
import { useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const HOUR = 3600 * 1000;

async function seed(now: Date) {
  const db = service().database.db;
  const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  const at = (offset: number) => new Date(now.getTime() + offset);
  const session = (id: string, expiresAt: Date, endedAt: Date | null = null) =>
    db.loginSession.create({
      data: {
        id,
        tokenHash: hashToken(id),
        userId: user.id,
        authTime: at(-48 * HOUR),
        createdAt: at(-48 * HOUR),
        expiresAt,
        endedAt,
      },
    });
  await session("expired-long-ago", at(-25 * HOUR));
  await session("ended-long-ago", at(10 * HOUR), at(-25 * HOUR));
  await session("ended-just-now", at(10 * HOUR), at(-HOUR));
  await session("current", at(10 * HOUR));
  for (const [name, expiresAt] of [
    ["old-code-1", at(-25 * HOUR)],
    ["old-code-2", at(-26 * HOUR)],
    ["old-code-3", at(-27 * HOUR)],
    ["recent-code", at(-HOUR)],
  ] as const) {
    await db.authorizationCode.create({
      data: {
        codeHash: hashToken(name),
        clientId: "demo-web",
        userId: user.id,
        redirectUri: "http://localhost:4000/callback",
        scopes: "[]",
        authTime: at(-48 * HOUR),
        createdAt: at(-48 * HOUR),
        expiresAt,
      },
    });
  }
  await db.ticket.create({
    data: { ticketHash: hashToken("old-ticket"), userId: user.id, createdAt: at(-9 * HOUR), expiresAt: at(-HOUR) },
  });
  await db.ticket.create({
    data: { ticketHash: hashToken("live-ticket"), userId: user.id, createdAt: at(-HOUR), expiresAt: at(HOUR) },
  });
  await db.authorizationInteraction.create({
    data: {
      idHash: hashToken("old-prompt"),
      loginSessionId: "current",
      clientId: "demo-web",
      parameters: "{}",
      createdAt: at(-HOUR),
      expiresAt: at(-HOUR / 2),
    },
  });
  await db.authorizationInteraction.create({
    data: {
      idHash: hashToken("open-prompt"),
      loginSessionId: "current",
      clientId: "demo-web",
      parameters: "{}",
      createdAt: at(-60_000),
      expiresAt: at(HOUR / 4),
    },
  });
  await db.loginThrottle.createMany({
    data: [
      { key: "account:stale@demo.test", failures: 3, windowStartedAt: at(-2 * HOUR), lockedUntil: null },
      // a reset counter's window is an hour: half way through it still counts
      { key: "reset-account:counting@demo.test", failures: 3, windowStartedAt: at(-HOUR / 2), lockedUntil: null },
      { key: "account:locked@demo.test", failures: 5, windowStartedAt: at(-HOUR), lockedUntil: at(HOUR / 4) },
      { key: "account:counting@demo.test", failures: 2, windowStartedAt: at(-60_000), lockedUntil: null },
    ],
  });
  await db.usedAssertion.createMany({
    data: [
      { key: "expired-assertion", expiresAt: at(-60_000) },
      { key: "live-assertion", expiresAt: at(60_000) },
    ],
  });
  await db.webauthnChallenge.createMany({
    data: [
      { challengeHash: "old-challenge", purpose: "sign_in", createdAt: at(-10 * 60_000), expiresAt: at(-5 * 60_000) },
      { challengeHash: "live-challenge", purpose: "sign_in", createdAt: now, expiresAt: at(5 * 60_000) },
    ],
  });
  await db.accountLink.createMany({
    data: [
      {
        userId: user.id,
        purpose: "password_reset",
        tokenHash: "old-link",
        createdAt: at(-26 * HOUR),
        expiresAt: at(-25 * HOUR),
      },
      {
        userId: user.id,
        purpose: "email_change",
        tokenHash: "live-link",
        newEmail: "n@example.com",
        expiresAt: at(HOUR),
      },
    ],
  });
  const notice = { userId: user.id, sentTo: user.email, signedInAt: at(-9 * 24 * HOUR) };
  await db.signInNotice.createMany({
    data: [
      { ...notice, tokenHash: "old-notice", createdAt: at(-9 * 24 * HOUR), expiresAt: at(-25 * HOUR) },
      { ...notice, tokenHash: "late-notice", createdAt: at(-7 * 24 * HOUR), expiresAt: at(-HOUR) },
    ],
  });
  const request = { kind: "password_reset", recipient: "x@example.com", language: "en", subject: "", sealedBody: "x" };
  await db.outboxMessage.createMany({
    data: [
      { ...request, nextAttemptAt: at(-2 * HOUR), createdAt: at(-2 * HOUR) },
      { ...request, recipient: "fresh@example.com", nextAttemptAt: at(-60_000), createdAt: at(-60_000) },
    ],
  });
  await db.pushedAuthorizationRequest.createMany({
    data: [
      { idHash: "expired-push", clientId: "demo-web", parameters: "{}", createdAt: at(-HOUR), expiresAt: at(-1000) },
      { idHash: "live-push", clientId: "demo-web", parameters: "{}", expiresAt: at(60_000) },
    ],
  });
  // A device's request is kept an hour past its expiry, so that a device still polling hears expired_token.
  const deviceRequest = (name: string, expiresAt: Date) => ({
    id: name,
    deviceCodeHash: hashToken(name),
    userCodeHash: name,
    clientId: "demo-device",
    scopes: "[]",
    pollInterval: 5,
    nextPollAt: at(-2 * HOUR),
    createdAt: at(-2 * HOUR),
    expiresAt,
  });
  await db.deviceAuthorization.createMany({
    data: [deviceRequest("old-device-request", at(-HOUR - 1000)), deviceRequest("late-device-request", at(-1000))],
  });
  for (const [name, expiresAt] of [
    ["expired-refresh", at(-25 * HOUR)],
    ["refresh-expired-just-now", at(-HOUR)],
    ["live-refresh", at(HOUR)],
  ] as const) {
    await db.refreshToken.create({
      data: {
        tokenHash: hashToken(name),
        familyId: name,
        clientId: "demo-web",
        userId: user.id,
        scopes: "[]",
        authTime: at(-48 * HOUR),
        createdAt: at(-48 * HOUR),
        expiresAt,
      },
    });
  }
}

describe(`purgeExpired on ${testProvider()}`, () => {
  it("deletes expired rows in batches and keeps everything still usable", async () => {
    const db = service().database.db;
    const now = new Date();
    await db.loginThrottle.deleteMany();
    await db.usedAssertion.deleteMany();
    await seed(now);

    const first = await purgeExpired(db, now, 2);
    expect(first).toEqual({
      refreshTokens: 1,
      authorizationCodes: 2,
      tickets: 1,
      interactions: 1,
      loginSessions: 2,
      throttles: 1,
      usedAssertions: 1,
      accountLinks: 1,
      signInNotices: 1,
      resetRequests: 1,
      webauthnChallenges: 1,
      pushedRequests: 1,
      deviceAuthorizations: 1,
      auditEvents: 0,
    });
    const second = await purgeExpired(db, now, 2);
    expect(second.authorizationCodes).toBe(1);
    expect(await purgeExpired(db, now, 2)).toEqual({
      refreshTokens: 0,
      authorizationCodes: 0,
      tickets: 0,
      interactions: 0,
      loginSessions: 0,
      throttles: 0,
      usedAssertions: 0,
      accountLinks: 0,
      signInNotices: 0,
      resetRequests: 0,
      webauthnChallenges: 0,
      pushedRequests: 0,
      deviceAuthorizations: 0,
      auditEvents: 0,
    });
    expect(await db.pushedAuthorizationRequest.count({ where: { idHash: "live-push" } })).toBe(1);
    expect(await db.signInNotice.count({ where: { tokenHash: "late-notice" } })).toBe(1);
    expect(await db.deviceAuthorization.count({ where: { id: "late-device-request" } })).toBe(1);

    expect(await db.authorizationCode.count({ where: { codeHash: hashToken("recent-code") } })).toBe(1);
    expect(
      (
        await db.refreshToken.findMany({
          where: { familyId: { in: ["expired-refresh", "refresh-expired-just-now", "live-refresh"] } },
        })
      )
        .map((t) => t.familyId)
        .sort(),
    ).toEqual(["live-refresh", "refresh-expired-just-now"]);
    expect(await db.ticket.count({ where: { ticketHash: hashToken("live-ticket") } })).toBe(1);
    expect(await db.authorizationInteraction.count({ where: { idHash: hashToken("open-prompt") } })).toBe(1);
    expect(
      (
        await db.loginSession.findMany({
          where: { id: { in: ["current", "ended-just-now", "expired-long-ago", "ended-long-ago"] } },
        })
      )
        .map((s) => s.id)
        .sort(),
    ).toEqual(["current", "ended-just-now"]);
    expect((await db.loginThrottle.findMany()).map((row) => row.key).sort()).toEqual([
      "account:counting@demo.test",
      "account:locked@demo.test",
      "reset-account:counting@demo.test",
    ]);
    expect((await db.accountLink.findMany()).map((row) => row.tokenHash)).toEqual(["live-link"]);
    expect(
      (await db.outboxMessage.findMany({ where: { kind: "password_reset" } })).map((row) => row.recipient),
    ).toEqual(["fresh@example.com"]);
    expect((await db.usedAssertion.findMany()).map((row) => row.key)).toEqual(["live-assertion"]);
  });

  it("drains a backlog in rounds until one comes back short", async () => {
    const db = service().database.db;
    const now = new Date();
    const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const expired = new Date(now.getTime() - 30 * HOUR);
    await db.refreshToken.createMany({
      data: Array.from({ length: 7 }, (_, index) => ({
        tokenHash: hashToken(`backlog-${index}`),
        familyId: `backlog-${index}`,
        clientId: "demo-web",
        userId: user.id,
        scopes: "[]",
        authTime: expired,
        createdAt: expired,
        expiresAt: expired,
      })),
    });
    expect((await purgeUntilDrained(db, { now, batch: 2, pauseMs: 1, maxRounds: 3 })).refreshTokens).toBe(6);
    expect((await purgeUntilDrained(db, { now, batch: 2, pauseMs: 1 })).refreshTokens).toBe(1);
    expect(await db.refreshToken.count({ where: { familyId: { startsWith: "backlog-" } } })).toBe(0);
  });

  it("runs from the operator CLI", async () => {
    const result = await runScript("scripts/admin.ts", ["purge"], {
      DATABASE_URL: service().database.target.url,
      SECRET_KEY: process.env.SECRET_KEY,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Removed \d+ refresh tokens?, \d+ authorization codes?, \d+ tickets?, \d+ sign-in prompts?, \d+ sign-in sessions?, \d+ throttle counters?, \d+ used assertion ids?, \d+ account links?, \d+ sign-in notice links?, \d+ unsent password reset requests?, \d+ passkey challenges?, \d+ pushed authorization requests?, \d+ device sign-in requests?, \d+ old audit events?\.$/m,
    );
  });
});
