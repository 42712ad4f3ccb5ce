/** Migration 0007 turns the customer relationships of a database migrated before it into supplier registrations. */
import { describe, expect, it } from "vitest";
import { migrate, migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { useMigrationDatabase } from "../../helpers/migration-database";
import { adHoc, testProvider } from "../../helpers/test-database";

const provider = testProvider();
const database = useMigrationDatabase();
const run = (sql: string, values: (string | number | boolean)[] = []) => database().run(sql, values);

describe(`migration 0007 on ${provider}`, () => {
  it("keeps every relationship as a registration: active ones active, inactive ones withdrawn, with subscriptions and names", async () => {
    const all = readMigrations(migrationsDirectory(), provider);
    await migrate(
      database().connection,
      all.filter((m) => m.id < "0007"),
    );
    for (const [id, kind] of [
      ["optician-a", "eye_care_professional"],
      ["optician-b", "eye_care_professional"],
      ["supplier", "supplier"],
    ]) {
      await run(`INSERT INTO "companies" ("id", "name", "kind") VALUES (?, ?, ?)`, [id, id, kind]);
    }
    await run(
      `INSERT INTO "catalogs" ("id", "supplier_company_id", "catalog_id", "resource_key", "name", "language", "format_version") VALUES ('cat', 'supplier', 'catalog.xml', 'K', 'N', 'de', '1')`,
    );
    await run(
      `INSERT INTO "customer_relationships" ("id", "customer_company_id", "supplier_company_id", "client_id", "active", "customer_groups") VALUES ('r1', 'optician-a', 'supplier', '100', ?, '[5]')`,
      [provider === "sqlite" ? 1 : true],
    );
    await run(
      `INSERT INTO "customer_relationships" ("id", "customer_company_id", "supplier_company_id", "client_id", "active") VALUES ('r2', 'optician-b', 'supplier', '200', ?)`,
      [provider === "sqlite" ? 0 : false],
    );
    await run(
      `INSERT INTO "catalog_subscriptions" ("relationship_id", "catalog_id", "status") VALUES ('r1', 'cat', 'Subscribed')`,
    );
    await run(
      `INSERT INTO "white_label_names" ("relationship_id", "article_number", "name") VALUES ('r1', 'WL-1', 'Own name')`,
    );

    expect(await migrate(database().connection, all)).toEqual(all.filter((m) => m.id >= "0007").map((m) => m.id));
    const registrations = await database().connection.query<Record<string, unknown>>(
      adHoc(
        `SELECT "id", "optician_company_id", "client_id", "status", "open", "customer_groups", "version" FROM "supplier_registrations" ORDER BY "id"`,
      ),
    );
    expect(
      registrations.map((r) => ({ ...r, open: r.open === null ? null : Boolean(r.open), version: Number(r.version) })),
    ).toEqual([
      {
        id: "r1",
        optician_company_id: "optician-a",
        client_id: "100",
        status: "active",
        open: true,
        customer_groups: "[5]",
        version: 1,
      },
      {
        id: "r2",
        optician_company_id: "optician-b",
        client_id: "200",
        status: "withdrawn",
        open: null,
        customer_groups: "[]",
        version: 1,
      },
    ]);
    expect(
      await database().connection.query(
        adHoc(`SELECT "registration_id", "catalog_id", "status" FROM "catalog_subscriptions"`),
      ),
    ).toEqual([{ registration_id: "r1", catalog_id: "cat", status: "Subscribed" }]);
    expect(
      await database().connection.query(adHoc(`SELECT "registration_id", "name" FROM "white_label_names"`)),
    ).toEqual([{ registration_id: "r1", name: "Own name" }]);
    expect(
      (
        await database().connection.query<{ status: string }>(
          adHoc(`SELECT "status" FROM "supplier_registration_changes" ORDER BY "registration_id"`),
        )
      ).map((r) => r.status),
    ).toEqual(["active", "withdrawn"]);
    // One open registration per optician and supplier; closed ones do not count.
    await expect(
      run(
        `INSERT INTO "supplier_registrations" ("id", "optician_company_id", "supplier_company_id", "client_id", "status", "open") VALUES ('r3', 'optician-a', 'supplier', '101', 'requested', ?)`,
        [provider === "sqlite" ? 1 : true],
      ),
    ).rejects.toThrow();
    await run(
      `INSERT INTO "supplier_registrations" ("id", "optician_company_id", "supplier_company_id", "client_id", "status", "open") VALUES ('r4', 'optician-b', 'supplier', '201', 'requested', ?)`,
      [provider === "sqlite" ? 1 : true],
    );
  });
});
