/**
 * The probes and the scheduled calls through their route files: liveness without the database, readiness with its
 * reasons (database, migrations, keys, shutdown), and /api/cron/* opened by CRON_SECRET alone, purging expired rows
 * and delivering the outbox to a real SMTP server.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { parseDatabaseUrl } from "@/lib/config/database-url";
import { hashToken } from "@/lib/crypto/tokens";
import { closeDb, createPrismaClient, type Db } from "@/lib/db/prisma";
import { startDraining } from "@/lib/server/draining";
import { handleCronOutbox, handleCronPurge } from "@/lib/server/cron-endpoints";
import { handleReadyRequest } from "@/lib/server/health-probes";
import { serviceContextFor } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { forgetKeySet } from "@/lib/store/signing-key-store";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { startSmtpSink } from "../../helpers/smtp-sink";
import { createTestDatabase, testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const CRON_SECRET = "cron-secret-0123456789-abcdef";
const unreachable: Db[] = [];
afterAll(() => Promise.all(unreachable.map((db) => closeDb(db).catch(() => undefined))));

const contextOn = (db: Db, config: Partial<Config> = {}) =>
  serviceContextFor(prismaStores(db), { ...loadConfig(), ...config });
const get = (path: string, authorization?: string, method = "GET") =>
  new Request(`${ISSUER}${path}`, { method, headers: authorization ? { authorization } : {} });
const ready = async (db: Db, config: Partial<Config> = {}) => {
  const response = await handleReadyRequest(get("/api/health/ready"), contextOn(db, config));
  return [response.status, (await response.json()).status];
};

describe(`probes on ${testProvider()}`, () => {
  it("live answers 200 from the process alone, ready 200 when the database and the keys are there", async () => {
    const live = await (await import("@/app/api/health/live/route")).GET(get("/api/health/live"));
    expect([live.status, await live.json(), live.headers.get("cache-control")]).toEqual([
      200,
      { status: "live" },
      "no-store",
    ]);
    const answer = await (await import("@/app/api/health/ready/route")).GET(get("/api/health/ready"));
    expect([answer.status, await answer.json()]).toEqual([200, { status: "ready" }]);
  });

  it("ready answers 503 when the database cannot be reached", async () => {
    const target = parseDatabaseUrl(
      testProvider() === "sqlite" ? "file:/nonexistent-directory/optigate.db" : "postgresql://postgres@127.0.0.1:1/x",
    );
    const db = createPrismaClient(target);
    unreachable.push(db);
    expect(await ready(db)).toEqual([503, "database_unreachable"]);
  });

  it("ready answers 503 while migrations are pending", async () => {
    const empty = await createTestDatabase({ migrate: false });
    try {
      expect(await ready(empty.db)).toEqual([503, "migrations_pending"]);
    } finally {
      await empty.drop();
    }
  });

  it("ready answers 503 when the signing keys do not open with SECRET_KEY", async () => {
    forgetKeySet();
    expect(await ready(service().database.db, { secretKey: "another-secret-key-0123456789-abcdefgh" })).toEqual([
      503,
      "keys_unavailable",
    ]);
    forgetKeySet();
  });

  it("ready answers 503 without creating keys where nothing prepared the database", async () => {
    const bare = await createTestDatabase();
    try {
      forgetKeySet();
      expect(await ready(bare.db)).toEqual([503, "keys_missing"]);
      expect(await bare.db.signingKey.count()).toBe(0);
    } finally {
      forgetKeySet();
      await bare.drop();
    }
  });

  it("answers a burst of probes with one check", async () => {
    const context = contextOn(service().database.db);
    let reads = 0;
    const counted = {
      ...context.stores.maintenance,
      readHealth: () => (reads++, context.stores.maintenance.readHealth()),
    };
    const stores = { ...context.stores, maintenance: counted };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => handleReadyRequest(get("/api/health/ready"), { ...context, stores })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(reads).toBe(1);
  });
});

describe(`scheduled calls on ${testProvider()}`, () => {
  const purge = (authorization?: string, config: Partial<Config> = { cronSecret: CRON_SECRET }, method = "POST") =>
    handleCronPurge(get("/api/cron/purge", authorization, method), contextOn(service().database.db, config));

  it.each([
    ["no token", undefined],
    ["another token", `Bearer ${CRON_SECRET}x`],
    ["the secret as Basic", `Basic ${CRON_SECRET}`],
  ])("refuses a call with %s (401)", async (_case, authorization) => {
    const answer = await purge(authorization);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("refuses every call while CRON_SECRET is not set, with the answer a wrong token gets", async () => {
    const unset = await purge(`Bearer ${CRON_SECRET}`, { cronSecret: null });
    const wrong = await purge(`Bearer ${CRON_SECRET}x`);
    expect(unset.status).toBe(401);
    expect(await unset.json()).toEqual(await wrong.json());
  });

  it.each(["POST", "GET"])("purges expired rows by %s with the secret", async (method) => {
    const db = service().database.db;
    const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const longAgo = new Date(Date.now() - 48 * 3_600_000);
    await db.ticket.create({
      data: { ticketHash: hashToken(`expired-${method}`), userId: user.id, createdAt: longAgo, expiresAt: longAgo },
    });
    const answer = await purge(`Bearer ${CRON_SECRET}`, { cronSecret: CRON_SECRET }, method);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const body = await answer.json();
    expect(body.purged.tickets).toBe(1);
    expect(body.secretExpiryNotices).toBe(0);
    expect(await db.ticket.count({ where: { ticketHash: hashToken(`expired-${method}`) } })).toBe(0);
  });

  it("delivers the waiting mail to the SMTP server, and says so when there is none to send through", async () => {
    const secret = { cronSecret: CRON_SECRET };
    const outbox = (config: Partial<Config>) =>
      handleCronOutbox(
        get("/api/cron/outbox", `Bearer ${CRON_SECRET}`, "POST"),
        contextOn(service().database.db, config),
      );
    const off = await outbox({ ...secret, mail: { ...loadConfig().mail, smtpUrl: null } });
    expect([off.status, (await off.json()).error]).toEqual([503, "mail_not_configured"]);

    const smtp = await startSmtpSink();
    try {
      const waiting = await service().database.db.outboxMessage.count({ where: { status: "queued" } });
      expect(waiting).toBeGreaterThan(0);
      const answer = await outbox({ ...secret, mail: { ...loadConfig().mail, smtpUrl: smtp.url } });
      expect([answer.status, await answer.json()]).toEqual([200, { sent: waiting }]);
      expect(smtp.received).toHaveLength(waiting);
    } finally {
      await smtp.close();
    }
  });
});

describe(`MIGRATE_ON_START=0 on ${testProvider()}`, () => {
  it("applies no migration at start and names the pending ones, which ready reports until a release step ran", async () => {
    const empty = await createTestDatabase({ migrate: false });
    try {
      const config = { ...loadConfig(), database: empty.target, demoData: false };
      const prepared = await prepareDatabase(config, undefined, false);
      expect(prepared.appliedMigrations).toEqual([]);
      expect(prepared.warnings).toEqual([
        expect.stringMatching(/^MIGRATE_ON_START=0 and \d+ migration\(s\) pending \(0001_identity, /),
      ]);
      expect(await ready(empty.db)).toEqual([503, "migrations_pending"]);
      expect((await prepareDatabase(config)).appliedMigrations).toContain("0001_identity");
      // Past the time one readiness answer serves the probes that follow it.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3_000 });
      expect(await ready(empty.db)).toEqual([200, "ready"]);
    } finally {
      vi.useRealTimers();
      await empty.drop();
    }
  });
});

// Last: the process stays draining until the next file starts afresh (tests/helpers/fresh-test-file.ts).
describe("shutdown", () => {
  it("ready answers 503 once the process drains, while live still answers", async () => {
    startDraining();
    expect(await ready(service().database.db)).toEqual([503, "draining"]);
    const live = await (await import("@/app/api/health/live/route")).GET(get("/api/health/live"));
    expect(live.status).toBe(200);
  });
});
