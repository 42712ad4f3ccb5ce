/**
 * Migration 0011 on a database migrated before it: public clients move to the rotate policy (RFC 9700 §4.14.2),
 * confidential ones keep theirs; trusted issuers are left without a limit, so they are refused until the operator
 * names whom each speaks for; clients get id_token_claims off.
 */
import { describe, expect, it } from "vitest";
import { migrate, migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { useMigrationDatabase } from "../../helpers/migration-database";
import { adHoc, testProvider } from "../../helpers/test-database";

const provider = testProvider();
const database = useMigrationDatabase();
const run = (sql: string, values: (string | number | boolean)[] = []) => database().run(sql, values);

describe(`migration 0011 on ${provider}`, () => {
  it("rotates public clients' refresh tokens from now on and leaves existing issuers without a limit", async () => {
    const all = readMigrations(migrationsDirectory(), provider);
    await migrate(
      database().connection,
      all.filter((m) => m.id < "0011"),
    );
    const client = (id: string, authMethod: string, policy: string) =>
      run(
        `INSERT INTO "clients" ("id", "kind", "token_endpoint_auth_method", "offline_access", "refresh_token_policy", "updated_at") VALUES (?, 'native', ?, ?, ?, CURRENT_TIMESTAMP)`,
        [id, authMethod, provider === "sqlite" ? 1 : true, policy],
      );
    await client("native-app", "none", "reuse");
    await client("web-reuse", "client_secret_basic", "reuse");
    await client("web-rotate", "client_secret_basic", "rotate");
    await run(
      `INSERT INTO "trusted_issuers" ("issuer", "jwks_uri", "subject_mapping") VALUES ('https://as.old.example', 'https://as.old.example/jwks', 'email')`,
    );

    expect(await migrate(database().connection, all)).toEqual(all.filter((m) => m.id >= "0011").map((m) => m.id));
    const clients = await database().connection.query<{
      id: string;
      refresh_token_policy: string;
      id_token_claims: unknown;
    }>(adHoc(`SELECT "id", "refresh_token_policy", "id_token_claims" FROM "clients" ORDER BY "id"`));
    expect(clients.map((c) => [c.id, c.refresh_token_policy, Boolean(c.id_token_claims)])).toEqual([
      ["native-app", "rotate", false],
      ["web-reuse", "reuse", false],
      ["web-rotate", "rotate", false],
    ]);
    const issuers = await database().connection.query<Record<string, unknown>>(
      adHoc(`SELECT "companies", "email_domains" FROM "trusted_issuers"`),
    );
    expect(issuers).toEqual([{ companies: null, email_domains: null }]);
  });
});
