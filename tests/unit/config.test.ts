import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { databaseEnvironment, parseDatabaseUrl, type DatabaseTarget } from "@/lib/config/database-url";
import { thrown } from "../helpers/thrown";

const KEY = "k".repeat(40);

const failure = (env: Record<string, string>) => thrown(ConfigError, () => loadConfig(env));

describe("loadConfig", () => {
  it("applies the contract's defaults", () => {
    const config = loadConfig({ SECRET_KEY: KEY });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: "http://localhost:3000",
      database: { provider: "sqlite", filename: "./data/optigate.db" },
      demoData: false,
      apiScopePrefix: "platform",
      tokenSigningAlg: "RS256",
      idTokenSigningAlg: "RS256",
      trustedProxies: 0,
      secretKey: KEY,
      secretKeySource: "environment",
      production: false,
    });
  });

  it("derives PUBLIC_URL from PORT and reads every variable", () => {
    expect(loadConfig({ PORT: "8080", SECRET_KEY: KEY }).publicUrl).toBe("http://localhost:8080");
    const config = loadConfig({
      PORT: "4000",
      PUBLIC_URL: "https://id.example.com",
      DATABASE_URL: "postgresql://u:p@db:5432/optigate",
      DEMO_DATA: "1",
      SECRET_KEY: KEY,
      API_SCOPE_PREFIX: "optics",
      ID_TOKEN_SIGNING_ALG: "ES256",
      REQUIRE_PAR: "1",
      REQUIRE_DPOP_NONCE: "1",
    });
    expect(config).toMatchObject({
      port: 4000,
      publicUrl: "https://id.example.com",
      demoData: true,
      apiScopePrefix: "optics",
      idTokenSigningAlg: "ES256",
      requirePar: true,
      requireDpopNonce: true,
    });
    expect(config.database).toEqual({ provider: "postgresql", url: "postgresql://u:p@db:5432/optigate" });
  });

  it.each([
    [{ PORT: "http" }, "PORT", "whole number"],
    [{ PORT: "70000" }, "PORT", "1 to 65535"],
    [{ PUBLIC_URL: "id.example.com" }, "PUBLIC_URL", "absolute"],
    [{ PUBLIC_URL: "https://id.example.com/" }, "PUBLIC_URL", 'must not end with "/"'],
    [{ PUBLIC_URL: "ftp://id.example.com" }, "PUBLIC_URL", "http or https"],
    [{ PUBLIC_URL: "https://id.example.com?x=1" }, "PUBLIC_URL", "query"],
    [{ DATABASE_URL: "mysql://db/optigate" }, "DATABASE_URL", "file: (SQLite), postgresql:// or postgres://"],
    [{ DATABASE_URL: "postgresql://db" }, "DATABASE_URL", "must name a PostgreSQL database"],
    [{ DATABASE_URL: "postgresql://u:hunter2@db" }, "DATABASE_URL", "u:***@db"],
    [{ DEMO_DATA: "yes" }, "DEMO_DATA", "must be 1 or unset"],
    [{ REQUIRE_PAR: "true" }, "REQUIRE_PAR", "must be 1 or unset"],
    [{ REQUIRE_DPOP_NONCE: "2" }, "REQUIRE_DPOP_NONCE", "must be 1 or unset"],
    [{ SECRET_KEY: "short" }, "SECRET_KEY", "at least 32 characters"],
    [{ API_SCOPE_PREFIX: "Bad Prefix" }, "API_SCOPE_PREFIX", "lower-case"],
    [{ TOKEN_SIGNING_ALG: "HS256" }, "TOKEN_SIGNING_ALG", "must be RS256 or ES256"],
    [{ ID_TOKEN_SIGNING_ALG: "none" }, "ID_TOKEN_SIGNING_ALG", "must be RS256, ES256 or PS256"],
    [{ TRUSTED_PROXIES: "yes" }, "TRUSTED_PROXIES", "whole number"],
    [{ PASSWORD_MIN_LENGTH: "7" }, "PASSWORD_MIN_LENGTH", "from 8 to 64"],
    [{ PASSWORD_MIN_LENGTH: "twelve" }, "PASSWORD_MIN_LENGTH", "from 8 to 64"],
    [{ PASSWORD_MIN_LENGTH: "65" }, "PASSWORD_MIN_LENGTH", "from 8 to 64"],
    [{ AUDIT_RETENTION_DAYS: "0" }, "AUDIT_RETENTION_DAYS", "whole number of days from 1 to 36500"],
    [{ AUDIT_RETENTION_DAYS: "1.5" }, "AUDIT_RETENTION_DAYS", "whole number of days"],
    [{ AUDIT_RETENTION_DAYS: "-3" }, "AUDIT_RETENTION_DAYS", "whole number of days"],
    [{ AUDIT_RETENTION_DAYS: "a year" }, "AUDIT_RETENTION_DAYS", "whole number of days"],
    [{ AUDIT_RETENTION_DAYS: "36501" }, "AUDIT_RETENTION_DAYS", "from 1 to 36500"],
    [{ DATABASE_URL: "postgresql://db/optigate", DATABASE_POOL_MAX: "0" }, "DATABASE_POOL_MAX", "from 1 to 100"],
    [{ DATABASE_POOL_MAX: "3" }, "DATABASE_POOL_MAX", "PostgreSQL only"],
    [{ DATABASE_URL: "postgresql://db/optigate", DATABASE_POOLER: "statement" }, "DATABASE_POOLER", "session or"],
    [{ DATABASE_POOLER: "transaction" }, "DATABASE_POOLER", "PostgreSQL only"],
    [{ LOG_FORMAT: "text" }, "LOG_FORMAT", 'must be json or pretty (got "text")'],
  ])("rejects %o with one line naming %s", (env, variable, text) => {
    const error = failure({ SECRET_KEY: KEY, ...env });
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable} `)).toBe(true);
    expect(error.message).toContain(text);
    expect(error.message).not.toContain("\n");
    expect(error.message).not.toContain("hunter2");
  });

  it("accepts passwords of 12 characters unless PASSWORD_MIN_LENGTH says otherwise, never below 8", () => {
    expect(loadConfig({ SECRET_KEY: KEY }).passwordMinLength).toBe(12);
    expect(loadConfig({ SECRET_KEY: KEY, PASSWORD_MIN_LENGTH: "8" }).passwordMinLength).toBe(8);
    expect(loadConfig({ SECRET_KEY: KEY, PASSWORD_MIN_LENGTH: " 16 " }).passwordMinLength).toBe(16);
  });

  it("keeps audit events 400 days unless AUDIT_RETENTION_DAYS says otherwise, at least one", () => {
    expect(loadConfig({ SECRET_KEY: KEY }).auditRetentionDays).toBe(400);
    expect(loadConfig({ SECRET_KEY: KEY, AUDIT_RETENTION_DAYS: "1" }).auditRetentionDays).toBe(1);
    expect(loadConfig({ SECRET_KEY: KEY, AUDIT_RETENTION_DAYS: " 3650 " }).auditRetentionDays).toBe(3650);
  });

  it("refuses to start in production without SECRET_KEY", () => {
    const error = failure({ NODE_ENV: "production" });
    expect(error.message).toBe("SECRET_KEY is required in production (at least 32 random characters)");
  });

  it("keeps a small connection pool per instance when DATABASE_POOL_MAX says so", () => {
    expect(
      loadConfig({ SECRET_KEY: KEY, DATABASE_URL: "postgresql://db/optigate", DATABASE_POOL_MAX: "2" }).database,
    ).toEqual({ provider: "postgresql", url: "postgresql://db/optigate", poolMax: 2 });
    expect(loadConfig({ SECRET_KEY: KEY, DATABASE_URL: "postgresql://db/optigate" }).database).toEqual({
      provider: "postgresql",
      url: "postgresql://db/optigate",
    });
  });

  it("knows from DATABASE_POOLER whether a transaction-mode pooler stands in front of PostgreSQL", () => {
    const database = (pooler: string) =>
      loadConfig({ SECRET_KEY: KEY, DATABASE_URL: "postgresql://db/optigate", DATABASE_POOLER: pooler }).database;
    expect(database(" transaction ")).toEqual({
      provider: "postgresql",
      url: "postgresql://db/optigate",
      pooler: "transaction",
    });
    expect(database("session")).toMatchObject({ pooler: "session" });
    expect(database("")).not.toHaveProperty("pooler");
  });

  it("gives a database target back as the environment that names it (the bench's servers, the tests' service)", () => {
    const targets: DatabaseTarget[] = [
      parseDatabaseUrl("file:./data/x.db"),
      { provider: "postgresql", url: "postgresql://db/optigate", poolMax: 2, pooler: "transaction" },
    ];
    for (const target of targets)
      expect(loadConfig({ SECRET_KEY: KEY, ...databaseEnvironment(target) }).database).toEqual(target);
  });

  it("requires SECRET_KEY with PostgreSQL", () => {
    expect(failure({ DATABASE_URL: "postgresql://db:5432/optigate" }).variable).toBe("SECRET_KEY");
  });

  it("generates and keeps a secret key for local SQLite use, also for the demo in production mode", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "optigate-config-"));
    const env = { NODE_ENV: "production", DEMO_DATA: "1", DATABASE_URL: `file:${directory}/db/optigate.db` };
    const first = loadConfig(env);
    expect(first.secretKeySource).toBe("generated");
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    const file = path.join(directory, "db", "secret-key");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(first.secretKey);
    expect(loadConfig(env).secretKey).toBe(first.secretKey);
  });

  it("sends mail to SMTP_URL from MAIL_FROM, by default from no-reply at the public host", () => {
    expect(loadConfig({ SECRET_KEY: KEY }).mail).toEqual({
      smtpUrl: null,
      mailFrom: "OptiGate <no-reply@localhost.localdomain>",
      catcherUrl: null,
    });
    expect(
      loadConfig({
        SECRET_KEY: KEY,
        PUBLIC_URL: "https://id.example.com",
        SMTP_URL: "smtps://user:p%40ss@mail.example.com:465",
      }).mail,
    ).toEqual({
      smtpUrl: "smtps://user:p%40ss@mail.example.com:465",
      mailFrom: "OptiGate <no-reply@id.example.com>",
      catcherUrl: null,
    });
    expect(loadConfig({ SECRET_KEY: KEY, MAIL_FROM: "Optik Portal <portal@optik.example>" }).mail.mailFrom).toBe(
      "Optik Portal <portal@optik.example>",
    );
    // The demo's mail catcher, linked from /admin/outbox.
    expect(loadConfig({ SECRET_KEY: KEY, MAIL_CATCHER_URL: "http://127.0.0.1:2526" }).mail.catcherUrl).toBe(
      "http://127.0.0.1:2526/",
    );
  });

  it.each([
    [{ SMTP_URL: "http://mail.example.com" }, "SMTP_URL", /smtp:\/\/ or smtps:\/\//],
    [{ SMTP_URL: "not a url" }, "SMTP_URL", /must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ MAIL_FROM: "nobody" }, "MAIL_FROM", /must be an email address/],
    [{ MAIL_FROM: "Evil <a@b.c>\r\nBcc: x@y.z" }, "MAIL_FROM", /must be an email address/],
    [{ MAIL_CATCHER_URL: "javascript:alert(1)" }, "MAIL_CATCHER_URL", /must be an http or https URL/],
    [{ MAIL_CATCHER_URL: "http://user:secret@mail:8025" }, "MAIL_CATCHER_URL", /without credentials/],
    [{ MAIL_CATCHER_URL: "localhost:8025" }, "MAIL_CATCHER_URL", /must be an http or https URL/],
  ])("refuses %o", (env, variable, message) => {
    const error = failure({ SECRET_KEY: KEY, ...env });
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(message);
  });
});

describe("platform settings", () => {
  it("refuses SQLite where VERCEL=1, with a line naming DATABASE_URL", () => {
    expect(failure({ SECRET_KEY: KEY, VERCEL: "1" }).message).toMatch(
      /^DATABASE_URL is an SQLite file, which cannot work on Vercel/,
    );
    expect(
      loadConfig({ SECRET_KEY: KEY, VERCEL: "1", DATABASE_URL: "postgresql://db/optigate" }).database.provider,
    ).toBe("postgresql");
  });

  it("migrates at start unless MIGRATE_ON_START is 0", () => {
    expect(loadConfig({ SECRET_KEY: KEY }).migrateOnStart).toBe(true);
    expect(loadConfig({ SECRET_KEY: KEY, MIGRATE_ON_START: "1" }).migrateOnStart).toBe(true);
    expect(loadConfig({ SECRET_KEY: KEY, MIGRATE_ON_START: "0" }).migrateOnStart).toBe(false);
    expect(failure({ SECRET_KEY: KEY, MIGRATE_ON_START: "no" }).message).toBe(
      'MIGRATE_ON_START must be 0 or 1 (got "no")',
    );
  });

  it("takes CRON_SECRET as a bearer secret of at least 16 characters", () => {
    expect(loadConfig({ SECRET_KEY: KEY }).cronSecret).toBeNull();
    expect(loadConfig({ SECRET_KEY: KEY, CRON_SECRET: "0123456789abcdef" }).cronSecret).toBe("0123456789abcdef");
    expect(failure({ SECRET_KEY: KEY, CRON_SECRET: "short" }).message).toBe(
      "CRON_SECRET must be at least 16 printable characters without spaces",
    );
  });
});
