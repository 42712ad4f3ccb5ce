/**
 * Every named statement of lib/db/statements/ runs on this database (SQLite, and PostgreSQL in CI), through the
 * functions the application calls. The last test fails when a statement is added without a case here.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import type { GroupedUpdate } from "@/lib/db/grouped-update";
import type { NamedStatement } from "@/lib/db/run-statement";
import { openSqlConnection, type SqlConnection } from "@/lib/db/sql-connection";
import { ARTICLE_PAGE_SIZE, insertArticles, readArticlePage } from "@/lib/db/statements/catalog-articles";
import { activeRegistrations, companyAsCaller, userAsCaller } from "@/lib/db/statements/api-callers";
import { raiseChangeCounter, readChangeCounter } from "@/lib/db/statements/change-counters";
import { appliedMigrationIds, ping } from "@/lib/db/statements/health";
import { CREATE_HISTORY, READ_HISTORY, RECORD_MIGRATION, TAKE_MIGRATION_LOCK } from "@/lib/db/statements/migrations";
import {
  attemptsInWindow,
  clearAttempts,
  lockWhenReached,
  releaseAttempt,
  reserveAttempt,
} from "@/lib/db/statements/throttles";
import { consumeAuthorizationCode, slideRefreshToken } from "@/lib/db/statements/tokens";
import { useAssertion, useAssertionRecorded } from "@/lib/db/statements/used-assertions";
import { demoWeb, useOAuthService } from "../../helpers/oauth-service";
import { addActivity, readActivityByCompany, readHourlyActivity } from "@/lib/db/statements/activity-counts";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const covered = new Set<string>();
const db = () => service().database.db;

let connection: SqlConnection;
beforeAll(async () => {
  connection = await openSqlConnection(service().database.target);
});
afterAll(() => connection.close());

describe(`named statements on ${testProvider()}`, () => {
  it("optigate_consume_code and optigate_slide_refresh_token", async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const now = new Date();
    await db().authorizationCode.create({
      data: {
        codeHash: hashToken("statements-code"),
        clientId: demoWeb.client_id,
        userId: user.id,
        redirectUri: demoWeb.redirect_uri,
        scopes: "[]",
        authTime: now,
        expiresAt: new Date(now.getTime() + 60_000),
      },
    });
    expect(
      (
        await consumeAuthorizationCode(db(), hashToken("statements-code"), demoWeb.client_id, now)
      )?.authTime.toISOString(),
    ).toBe(now.toISOString());
    await db().refreshToken.create({
      data: {
        tokenHash: hashToken("statements-rt"),
        familyId: randomUUID(),
        clientId: demoWeb.client_id,
        userId: user.id,
        scopes: "[]",
        authTime: now,
        expiresAt: new Date(now.getTime() + 60_000),
      },
    });
    expect(
      (
        await slideRefreshToken(
          db(),
          hashToken("statements-rt"),
          demoWeb.client_id,
          now,
          new Date(now.getTime() + 120_000),
        )
      )?.userId,
    ).toBe(user.id);
    // Each function runs the SQLite statement or the PostgreSQL group statement, in that database's CI run.
    [
      "optigate_consume_code",
      "optigate_slide_refresh_token",
      "optigate_consume_code_group",
      "optigate_slide_refresh_token_group",
    ].forEach((name) => covered.add(name));
  });

  it("optigate_reserve_attempt, _lock_attempts, _release_attempt, _count_attempts and _clear_attempts", async () => {
    const now = new Date("2026-11-22T10:00:00.000Z");
    expect(await reserveAttempt(db(), "statements:key", 900, now)).toEqual({
      attempts: 1,
      windowStartedAt: now,
      lockedUntil: null,
    });
    expect((await reserveAttempt(db(), "statements:key", 900, new Date(now.getTime() + 1000))).attempts).toBe(2);
    const until = new Date(now.getTime() + 900_000);
    expect(await lockWhenReached(db(), "statements:key", 3, until, now)).toBe(false);
    expect((await db().loginThrottle.findUniqueOrThrow({ where: { key: "statements:key" } })).lockedUntil).toBeNull();
    expect(await lockWhenReached(db(), "statements:key", 2, until, now)).toBe(true);
    // Locked already: no second lock-out, and the first one's end stands.
    expect(await lockWhenReached(db(), "statements:key", 2, new Date(until.getTime() + 1000), now)).toBe(false);
    expect((await reserveAttempt(db(), "statements:key", 900, new Date(now.getTime() + 2000))).lockedUntil).toEqual(
      until,
    );
    await releaseAttempt(db(), "statements:key");
    expect((await db().loginThrottle.findUniqueOrThrow({ where: { key: "statements:key" } })).failures).toBe(2);
    // Counting reads the window's attempts and counts none; a window that is over holds none.
    expect(await attemptsInWindow(db(), "statements:key", 900, new Date(now.getTime() + 3000))).toBe(2);
    expect(await attemptsInWindow(db(), "statements:key", 900, new Date(now.getTime() + 900_000))).toBe(0);
    expect(await attemptsInWindow(db(), "statements:nothing", 900, now)).toBe(0);
    // A window that is over starts anew (the lock is over too).
    expect((await reserveAttempt(db(), "statements:key", 900, new Date(until.getTime() + 1))).attempts).toBe(1);
    await clearAttempts(db(), "statements:key");
    expect(await db().loginThrottle.findUnique({ where: { key: "statements:key" } })).toBeNull();
    [
      "optigate_reserve_attempt",
      "optigate_lock_attempts",
      "optigate_release_attempt",
      "optigate_count_attempts",
      "optigate_clear_attempts",
    ].forEach((name) => covered.add(name));
  });

  it("optigate_insert_catalog_articles and optigate_article_page_<groups>", async () => {
    const revision = await db().catalogRevision.findFirstOrThrow({ where: { released: true } });
    const articles = Array.from({ length: ARTICLE_PAGE_SIZE + 5 }, (_, index) => ({
      id: randomUUID(),
      revisionId: revision.id,
      articleNumber: `ST-${String(index).padStart(5, "0")}`,
      genericName: "Statement test",
      customerGroup: index % 2 === 0 ? 0 : 7,
      purchasePriceCents: index,
      retailPriceCents: null,
      startDate: new Date("2026-03-01T00:00:00.000Z"),
      endDate: null,
      whiteLabel: index === 1,
    }));
    await insertArticles(db(), articles);
    const first = (await readArticlePage(db(), { revisionId: revision.id, groups: [0, 7] })).filter((row) =>
      row.articleNumber.startsWith("ST-"),
    );
    expect(first[0]).toMatchObject({
      articleNumber: "ST-00000",
      customerGroup: 0,
      purchasePriceCents: 0,
      startDate: "2026-03-01",
      endDate: null,
    });
    expect(Boolean(first[1].whiteLabel)).toBe(true);
    const onlyGroup7 = await readArticlePage(
      db(),
      { revisionId: revision.id, groups: [7] },
      { articleNumber: "ST-00000", customerGroup: 0 },
    );
    expect(onlyGroup7.every((row) => row.customerGroup === 7)).toBe(true);
    expect(await readArticlePage(db(), { revisionId: revision.id, groups: [7] }, undefined, 3)).toHaveLength(3);
    const everyGroup = await readArticlePage(
      db(),
      { revisionId: revision.id, groups: "all" },
      { articleNumber: "ST-", customerGroup: -1 },
      2,
    );
    expect(everyGroup.map((row) => [row.articleNumber, row.customerGroup])).toEqual([
      ["ST-00000", 0],
      ["ST-00001", 7],
    ]);
    [
      "optigate_insert_catalog_articles",
      "optigate_article_page_1",
      "optigate_article_page_2",
      "optigate_article_page_all",
    ].forEach((name) => covered.add(name));
  });

  it("optigate_user_as_caller, optigate_company_as_caller and optigate_active_registrations", async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const caller = await userAsCaller(db(), user.id);
    expect(caller?.company).toEqual({
      id: "demo-company-optician",
      name: "Augenoptik Demo GmbH",
      kind: "eye_care_professional",
      supplierId: null,
      requireSecondFactor: false,
    });
    expect(caller?.registrations).toEqual([
      {
        registrationId: expect.any(String),
        supplierCompanyId: "demo-company-lens",
        clientId: "100234",
        customerGroups: [5],
        subscriptions: [{ catalogId: expect.any(String), status: "Subscribed" }],
      },
    ]);
    expect(await userAsCaller(db(), "nobody")).toBeUndefined();
    await db().user.update({ where: { id: user.id }, data: { active: false } });
    expect(await userAsCaller(db(), user.id)).toBeUndefined();
    await db().user.update({ where: { id: user.id }, data: { active: true } });
    await db().company.update({ where: { id: "demo-company-lens" }, data: { requireSecondFactor: true } });
    expect(await companyAsCaller(db(), "demo-company-lens")).toEqual({
      company: expect.objectContaining({ kind: "supplier", supplierId: "DLAG", requireSecondFactor: true }),
      registrations: [],
    });
    await db().company.update({ where: { id: "demo-company-lens" }, data: { requireSecondFactor: false } });
    expect(await companyAsCaller(db(), "nothing")).toBeUndefined();
    expect(await activeRegistrations(db(), "demo-company-optician")).toEqual(caller?.registrations);
    expect(await activeRegistrations(db(), "demo-company-lens")).toEqual([]);
    ["optigate_user_as_caller", "optigate_company_as_caller", "optigate_active_registrations"].forEach((name) =>
      covered.add(name),
    );
  });

  it("optigate_read_change_counter", async () => {
    const before = await readChangeCounter(db(), "catalog_list");
    await db().$transaction((tx) => raiseChangeCounter(tx, "catalog_list"));
    expect(await readChangeCounter(db(), "catalog_list")).toBe(before + 1);
    covered.add("optigate_read_change_counter");
  });

  it("optigate_ping and optigate_applied_migrations", async () => {
    await ping(db());
    expect(await appliedMigrationIds(db())).toEqual(
      expect.arrayContaining(readMigrations(migrationsDirectory(), testProvider()).map((m) => m.id)),
    );
    ["optigate_ping", "optigate_applied_migrations"].forEach((name) => covered.add(name));
  });

  it("the migrator's statements", async () => {
    await connection
      .exclusiveTransaction(async () => {
        await connection.query(CREATE_HISTORY);
        await connection.query(RECORD_MIGRATION, ["9999_statements_test", "checksum", new Date()]);
        const history = await connection.query<{ id: string }>(READ_HISTORY);
        expect(history.at(-1)?.id).toBe("9999_statements_test");
        throw new Error("roll back the test row");
      })
      .catch((error: Error) => expect(error.message).toBe("roll back the test row"));
    if (testProvider() === "postgresql")
      await connection.exclusiveTransaction(() => connection.query(TAKE_MIGRATION_LOCK, [1]));
    expect((await connection.query<{ id: string }>(READ_HISTORY)).map((row) => row.id)).not.toContain(
      "9999_statements_test",
    );
    // exclusiveTransaction takes the lock itself on PostgreSQL; SQLite locks with BEGIN IMMEDIATE instead.
    [CREATE_HISTORY, READ_HISTORY, RECORD_MIGRATION, TAKE_MIGRATION_LOCK].forEach((statement) =>
      covered.add(statement.name),
    );
  });

  it("optigate_use_assertion: the first use wins, a replay before expiry loses, an expired use may be renewed", async () => {
    const now = new Date("2026-11-22T10:00:00.000Z");
    const later = new Date(now.getTime() + 300_000);
    const uses = await Promise.all([0, 1, 2].map(() => useAssertion(db(), "statements:jti", later, now)));
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await useAssertion(db(), "statements:jti", later, new Date(later.getTime() - 1))).toBe(false);
    expect(await useAssertion(db(), "statements:jti", new Date(later.getTime() + 300_000), later)).toBe(true);
    expect((await db().usedAssertion.findUniqueOrThrow({ where: { key: "statements:jti" } })).expiresAt).toEqual(
      new Date(later.getTime() + 300_000),
    );
    covered.add("optigate_use_assertion");
  });

  it("optigate_add_activity and the activity reads: counts add up per hour at once, summed per hour or company", async () => {
    const hour = new Date("2026-11-22T12:00:00.000Z");
    const add = (companyId: string, count: number) =>
      addActivity(db(), [{ at: new Date(hour.getTime() + 59_000), companyId, kind: "catalog.download", count }]);
    await Promise.all([add("statements:a", 1), add("statements:a", 2), add("statements:b", 4)]);
    expect(await readHourlyActivity(db(), hour, "catalog.download")).toEqual(
      expect.arrayContaining([{ hour, kind: "catalog.download", count: 7 }]),
    );
    expect(await readHourlyActivity(db(), hour, "catalog.download", "statements:a")).toEqual([
      { hour, kind: "catalog.download", count: 3 },
    ]);
    expect(await readHourlyActivity(db(), new Date(hour.getTime() + 3_600_000), "catalog.download")).toEqual([]);
    const byCompany = await readActivityByCompany(db(), hour, "catalog.%");
    expect(byCompany.filter((row) => row.companyId.startsWith("statements:"))).toEqual([
      { companyId: "statements:a", kind: "catalog.download", count: 3 },
      { companyId: "statements:b", kind: "catalog.download", count: 4 },
    ]);
    ["optigate_add_activity", "optigate_hourly_activity", "optigate_hourly_company_activity"].forEach((name) =>
      covered.add(name),
    );
    covered.add("optigate_activity_by_company");
  });

  it("optigate_use_assertion_recorded (PostgreSQL) and optigate_record_audit_event (SQLite): the event comes with a first use only", async () => {
    const now = new Date("2026-11-22T11:00:00.000Z");
    const event = (id: string) => ({
      id,
      occurredAt: now,
      type: "federation.token_issued",
      userId: null,
      clientId: "demo-web",
      details: '{"grantType":"test"}',
    });
    const uses = await Promise.all(
      ["e-1", "e-2", "e-3"].map((id) =>
        useAssertionRecorded(db(), "statements:recorded", new Date(now.getTime() + 60_000), now, event(id)),
      ),
    );
    expect(uses.filter(Boolean)).toHaveLength(1);
    const events = await db().auditEvent.findMany({ where: { id: { in: ["e-1", "e-2", "e-3"] } } });
    expect(events.map((row) => [row.type, row.clientId, row.details, row.occurredAt.toISOString()])).toEqual([
      ["federation.token_issued", "demo-web", '{"grantType":"test"}', now.toISOString()],
    ]);
    // The statement of the other database runs in that database's CI run; the function covers both.
    ["optigate_use_assertion_recorded", "optigate_record_audit_event"].forEach((name) => covered.add(name));
  });

  it("covers every statement the folder exports", async () => {
    const exported: string[] = [];
    for (const file of readdirSync("lib/db/statements")) {
      const module = (await import(`@/lib/db/statements/${path.parse(file).name}.ts`)) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        if (typeof value !== "object" || value === null) continue;
        if ("name" in value && "sql" in value) exported.push((value as NamedStatement).name);
        if ("sqlite" in value && "postgres" in value)
          exported.push((value as GroupedUpdate<string>).sqlite.name, (value as GroupedUpdate<string>).postgres.name);
      }
    }
    expect(exported.length).toBeGreaterThan(10);
    expect(exported.filter((name) => !covered.has(name))).toEqual([]);
  });
});
