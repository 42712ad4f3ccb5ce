import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { driverOf } from "@/lib/db/prisma";
import { consumeAuthorizationCode, slideRefreshToken } from "@/lib/db/statements/tokens";
import { demoWeb, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
let userId: string;

beforeAll(async () => {
  userId = (await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } })).id;
});

async function newCode(code: string, expiresAt = new Date(Date.now() + 60_000)) {
  await service().database.db.authorizationCode.create({
    data: {
      codeHash: hashToken(code),
      clientId: demoWeb.client_id,
      userId,
      redirectUri: demoWeb.redirect_uri,
      scopes: '["openid"]',
      authTime: new Date("2026-01-02T03:04:05.678Z"),
      expiresAt,
    },
  });
}

describe(`hot-path statements on ${testProvider()}`, () => {
  it("run on the driver under Prisma", async () => {
    const db = service().database.db;
    await db.user.count(); // connects
    const driver = driverOf(db);
    expect(driver.provider).toBe(testProvider());
    if (driver.provider === "sqlite") expect(driver.database()).toBeDefined();
  });

  it("are found from another copy of the module, as the Next.js bundle and the lean front each load their own", async () => {
    const db = service().database.db;
    vi.resetModules();
    const otherCopy = await import("@/lib/db/prisma");
    expect(otherCopy.driverOf).not.toBe(driverOf);
    expect(otherCopy.driverOf(db)).toBe(driverOf(db));
  });

  it("consume a code once, return it with its timestamps intact, and refuse expired and foreign codes", async () => {
    const db = service().database.db;
    await newCode("code-1");
    const now = new Date();
    const consumed = await consumeAuthorizationCode(db, hashToken("code-1"), demoWeb.client_id, now);
    expect(consumed).toMatchObject({
      userId,
      redirectUri: demoWeb.redirect_uri,
      scopes: '["openid"]',
      nonce: null,
      codeChallenge: null,
    });
    expect(consumed!.authTime.toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect(await consumeAuthorizationCode(db, hashToken("code-1"), demoWeb.client_id, now)).toBeUndefined();
    const row = await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: hashToken("code-1") } });
    expect(row.consumedAt?.toISOString()).toBe(now.toISOString());

    await newCode("code-expired", new Date(Date.now() - 1000));
    expect(
      await consumeAuthorizationCode(db, hashToken("code-expired"), demoWeb.client_id, new Date()),
    ).toBeUndefined();
    await newCode("code-foreign");
    expect(await consumeAuthorizationCode(db, hashToken("code-foreign"), "demo-spa", new Date())).toBeUndefined();
  });

  it("slide a refresh token's expiry as stored timestamps Prisma reads back", async () => {
    const db = service().database.db;
    await db.refreshToken.create({
      data: {
        tokenHash: hashToken("rt-1"),
        familyId: randomUUID(),
        clientId: demoWeb.client_id,
        userId,
        scopes: '["offline_access"]',
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 1000),
      },
    });
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 365 * 86_400_000);
    expect(await slideRefreshToken(db, hashToken("rt-1"), demoWeb.client_id, now, expiresAt)).toMatchObject({
      userId,
      scopes: '["offline_access"]',
    });
    const row = await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: hashToken("rt-1") } });
    expect(row.expiresAt.toISOString()).toBe(expiresAt.toISOString());
    expect(row.lastUsedAt?.toISOString()).toBe(now.toISOString());
    expect(await slideRefreshToken(db, hashToken("rt-1"), "demo-spa", now, expiresAt)).toBeUndefined();
  });

  it("decide each request on its own rows when many arrive at once, in one commit for the group", async () => {
    const db = service().database.db;
    const tokens = Array.from({ length: 12 }, (_, index) => `rt-group-${index}`);
    await db.refreshToken.createMany({
      data: tokens.map((token) => ({
        tokenHash: hashToken(token),
        familyId: randomUUID(),
        clientId: demoWeb.client_id,
        userId,
        scopes: `["${token}"]`,
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      })),
    });
    for (const code of ["code-group-1", "code-group-2"]) await newCode(code);
    const driver = driverOf(db);
    const commits =
      driver.provider === "sqlite" ? vi.spyOn(driver.database(), "transaction") : vi.spyOn(driver.pool, "query");
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 365 * 86_400_000);
    const later = new Date(expiresAt.getTime() + 1000);
    // An unknown token, and the first token again with a later expiry: the repeat slides it once more.
    const presented = [...tokens, "rt-unknown"];
    const [slides, repeat, foreign, codes] = await Promise.all([
      Promise.all(presented.map((token) => slideRefreshToken(db, hashToken(token), demoWeb.client_id, now, expiresAt))),
      slideRefreshToken(db, hashToken(tokens[0]), demoWeb.client_id, now, later),
      slideRefreshToken(db, hashToken(tokens[1]), "demo-spa", now, expiresAt),
      Promise.all(
        ["code-group-1", "code-group-1", "code-group-2"].map((code) =>
          consumeAuthorizationCode(db, hashToken(code), demoWeb.client_id, now),
        ),
      ),
    ]);
    expect(slides.map((slide) => slide?.scopes)).toEqual([...tokens.map((token) => `["${token}"]`), undefined]);
    expect(repeat?.scopes).toBe(`["${tokens[0]}"]`);
    expect(foreign).toBeUndefined();
    // The same code twice at once: exactly one of them consumes it.
    expect(codes.map((code) => code !== undefined).sort()).toEqual([false, true, true]);
    expect(codes[2]).toBeDefined();
    // SQLite: one transaction. PostgreSQL: one statement per kind of update, and one more for each kind's repeat.
    const groupStatements = commits.mock.calls.filter(
      ([query]) => driver.provider === "sqlite" || String((query as { name?: string }).name).endsWith("_group"),
    );
    expect(groupStatements).toHaveLength(driver.provider === "sqlite" ? 1 : 4);
    commits.mockRestore();
    const slid = await db.refreshToken.findMany({ where: { tokenHash: { in: tokens.map(hashToken) } } });
    const expiryOf = (token: string) => slid.find((row) => row.tokenHash === hashToken(token))!.expiresAt.toISOString();
    expect(tokens.map(expiryOf)).toEqual(
      [later, ...tokens.slice(1).map(() => expiresAt)].map((date) => date.toISOString()),
    );
  });

  it("lock a PostgreSQL group's rows in the order of their keys, so that two groups in flight cannot deadlock", async () => {
    const db = service().database.db;
    const driver = driverOf(db);
    if (driver.provider !== "postgresql") return;
    // Presented in the reverse order of their keys.
    const tokens = ["rt-order-a", "rt-order-b", "rt-order-c", "rt-order-d"].sort((a, b) =>
      hashToken(a) < hashToken(b) ? 1 : -1,
    );
    await db.refreshToken.createMany({
      data: tokens.map((token) => ({
        tokenHash: hashToken(token),
        familyId: randomUUID(),
        clientId: demoWeb.client_id,
        userId,
        scopes: "[]",
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      })),
    });
    const queries = vi.spyOn(driver.pool, "query");
    const now = new Date();
    await Promise.all(
      tokens.map((token) =>
        slideRefreshToken(db, hashToken(token), demoWeb.client_id, now, new Date(now.getTime() + 120_000)),
      ),
    );
    const [query] = queries.mock.calls.find(([call]) => String((call as { name?: string }).name).endsWith("_group"))!;
    queries.mockRestore();
    const keys = (query as unknown as { values: string[][] }).values[0];
    expect(keys).toEqual(tokens.map(hashToken).reverse());
  });

  it("try a PostgreSQL group once more after a deadlock, and fail the whole group on any other error", async () => {
    const db = service().database.db;
    const driver = driverOf(db);
    if (driver.provider !== "postgresql") return;
    const tokens = ["rt-deadlock-1", "rt-deadlock-2", "rt-failing-1", "rt-failing-2"];
    await db.refreshToken.createMany({
      data: tokens.map((token) => ({
        tokenHash: hashToken(token),
        familyId: randomUUID(),
        clientId: demoWeb.client_id,
        userId,
        scopes: "[]",
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      })),
    });
    const query = driver.pool.query.bind(driver.pool);
    const failWith = (error: Error & { code?: string }, times: number) => {
      let left = times;
      return vi
        .spyOn(driver.pool, "query")
        .mockImplementation(((config: { name?: string }, ...rest: unknown[]) =>
          String(config.name).endsWith("_group") && left-- > 0
            ? Promise.reject(error)
            : (query as (...args: unknown[]) => unknown)(config, ...rest)) as typeof driver.pool.query);
    };
    const slideAll = (names: string[]) =>
      Promise.allSettled(
        names.map((token) =>
          slideRefreshToken(db, hashToken(token), demoWeb.client_id, new Date(), new Date(Date.now() + 120_000)),
        ),
      );

    const deadlock = failWith(Object.assign(new Error("deadlock detected"), { code: "40P01" }), 1);
    const retried = await slideAll(tokens.slice(0, 2));
    deadlock.mockRestore();
    expect(retried.map((outcome) => outcome.status === "fulfilled" && outcome.value !== undefined)).toEqual([
      true,
      true,
    ]);

    const twice = failWith(Object.assign(new Error("deadlock detected"), { code: "40P01" }), 2);
    const givenUp = await slideAll(tokens.slice(0, 2));
    twice.mockRestore();
    expect(givenUp.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);

    const broken = failWith(new Error("connection lost"), 1);
    const failed = await slideAll(tokens.slice(2));
    broken.mockRestore();
    expect(
      failed.map((outcome) => (outcome.status === "rejected" ? (outcome.reason as Error).message : "settled")),
    ).toEqual(["connection lost", "connection lost"]);
  });

  it("wait for an open Prisma transaction instead of joining it, so its rollback cannot undo a consumed code", async () => {
    const db = service().database.db;
    await newCode("code-during-transaction");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db
      .$transaction(async (tx) => {
        await tx.auditEvent.create({ data: { type: "test.rolled_back" } });
        await held;
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const consumption = consumeAuthorizationCode(
      db,
      hashToken("code-during-transaction"),
      demoWeb.client_id,
      new Date(),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await consumption).toBeDefined();
    const row = await db.authorizationCode.findUniqueOrThrow({
      where: { codeHash: hashToken("code-during-transaction") },
    });
    expect(row.consumedAt).not.toBeNull();
    expect(await db.auditEvent.count({ where: { type: "test.rolled_back" } })).toBe(0);
  });
});

describe(`hot statements and Prisma transactions on ${testProvider()}`, () => {
  it("take turns on SQLite (the statement runs when the transaction has ended) and run alongside on PostgreSQL", async () => {
    const db = service().database.db;
    await newCode("code-taking-turns");
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.$transaction(async (tx) => {
      await tx.auditEvent.create({ data: { type: "test.committed" } });
      await held;
      events.push("transaction ends");
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const statement = consumeAuthorizationCode(db, hashToken("code-taking-turns"), demoWeb.client_id, new Date()).then(
      (row) => {
        events.push("statement done");
        return row;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    events.push("released");
    release();
    await transaction;
    expect(await statement).toBeDefined();
    expect(events).toEqual(
      testProvider() === "sqlite"
        ? ["released", "transaction ends", "statement done"]
        : ["statement done", "released", "transaction ends"],
    );
    expect(await db.auditEvent.count({ where: { type: "test.committed" } })).toBe(1);
  });
});
