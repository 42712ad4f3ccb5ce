/**
 * Migration 0026 on a database migrated before it: the audit trail's new columns are filled from what the events'
 * details recorded: the company they named (or the company of the person they were about), and the management
 * client that acted; events that named neither keep both empty.
 */
import { describe, expect, it } from "vitest";
import { migrate, migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { useMigrationDatabase } from "../../helpers/migration-database";
import { adHoc, testProvider } from "../../helpers/test-database";

const provider = testProvider();
const database = useMigrationDatabase();
const run = (sql: string, values: (string | number | boolean)[] = []) => database().run(sql, values);

describe(`migration 0026 on ${provider}`, () => {
  it("reads each event's company and acting client from its details", async () => {
    const all = readMigrations(migrationsDirectory(), provider);
    await migrate(
      database().connection,
      all.filter((m) => m.id < "0026"),
    );
    await run(`INSERT INTO "companies" ("id", "name", "kind") VALUES ('shop', 'Shop', 'eye_care_professional')`);
    await run(
      `INSERT INTO "users" ("id", "company_id", "email", "given_name", "family_name", "password_hash", "updated_at") VALUES ('kim', 'shop', 'kim@shop.example', 'Kim', 'Muster', 'x', CURRENT_TIMESTAMP)`,
    );
    const event = (id: string, type: string, details: object) =>
      run(`INSERT INTO "audit_events" ("id", "type", "details") VALUES (?, ?, ?)`, [id, type, JSON.stringify(details)]);
    await event("named", "company.updated", { companyId: "lens", companyKind: "supplier" });
    await event("by-api", "company.added", { companyId: "erp-1", byClientId: "erp-client" });
    await event("person", "user.deactivated", { subjectUserId: "kim", username: "kim@shop.example" });
    await event("erased", "user.deactivated", { subjectUserId: "gone" });
    await event("number", "company.added", { companyId: 7 });
    await event("neither", "sign_in.failed", { username: "x@y.example", reason: "invalid_credentials" });

    expect(await migrate(database().connection, all)).toEqual(all.filter((m) => m.id >= "0026").map((m) => m.id));
    const rows = await database().connection.query<{ id: string; company_id: string | null; by_client_id: unknown }>(
      adHoc(`SELECT "id", "company_id", "by_client_id" FROM "audit_events" ORDER BY "id"`),
    );
    expect(rows).toEqual([
      { id: "by-api", company_id: "erp-1", by_client_id: "erp-client" },
      { id: "erased", company_id: null, by_client_id: null },
      { id: "named", company_id: "lens", by_client_id: null },
      { id: "neither", company_id: null, by_client_id: null },
      { id: "number", company_id: null, by_client_id: null },
      { id: "person", company_id: "shop", by_client_id: null },
    ]);
  });
});
