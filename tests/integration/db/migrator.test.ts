import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, MigrationError, migrationsDirectory, readMigrations, type Migration } from "@/lib/db/migrator";
import { openSqlConnection, type SqlConnection } from "@/lib/db/sql-connection";
import { runScript } from "../../helpers/run-script";
import { adHoc, createTestDatabase, testProvider, type TestDatabase } from "../../helpers/test-database";

const provider = testProvider();
let database: TestDatabase;
let connection: SqlConnection;

function migrationsIn(files: Record<string, string>): Migration[] {
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-migrations-"));
  for (const [name, script] of Object.entries(files)) writeFileSync(path.join(directory, name), script);
  return readMigrations(directory, provider);
}

async function tableExists(name: string): Promise<boolean> {
  const rows =
    provider === "sqlite"
      ? await connection.query(adHoc(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`), [name])
      : await connection.query(
          adHoc(
            `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`,
          ),
          [name],
        );
  return rows.length === 1;
}

async function history(): Promise<string[]> {
  return (await connection.query<{ id: string }>(adHoc(`SELECT "id" FROM "schema_migrations" ORDER BY "id"`))).map(
    (row) => row.id,
  );
}

const first = { "0001_notes.sql": `CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL);` };
const second = {
  "0002_tags.sql": `CREATE TABLE "tags" ("id" INTEGER PRIMARY KEY);\nINSERT INTO "tags" ("id") VALUES (1);`,
};

beforeEach(async () => {
  database = await createTestDatabase({ migrate: false });
  connection = await openSqlConnection(database.target);
});
afterEach(async () => {
  await connection.close();
  await database.drop();
});

describe(`migrator on ${provider}`, () => {
  it("applies the project's migrations to a fresh database and records them", async () => {
    const migrations = readMigrations(migrationsDirectory(), provider);
    expect(migrations.map((m) => m.id)).toContain("0001_identity");
    expect(await migrate(connection, migrations)).toEqual(migrations.map((m) => m.id));
    expect(await history()).toEqual(migrations.map((m) => m.id));
    expect(await tableExists("users")).toBe(true);
  });

  it("applies nothing when re-run", async () => {
    const migrations = readMigrations(migrationsDirectory(), provider);
    await migrate(connection, migrations);
    expect(await migrate(connection, migrations)).toEqual([]);
    expect(await history()).toEqual(migrations.map((m) => m.id));
  });

  it("applies only what is pending on a partially migrated database", async () => {
    expect(await migrate(connection, migrationsIn(first))).toEqual(["0001_notes"]);
    await connection.query(adHoc(`INSERT INTO "notes" ("id", "text") VALUES (1, 'kept')`));
    expect(await migrate(connection, migrationsIn({ ...first, ...second }))).toEqual(["0002_tags"]);
    expect(await history()).toEqual(["0001_notes", "0002_tags"]);
    expect(await connection.query(adHoc(`SELECT "text" FROM "notes"`))).toEqual([{ text: "kept" }]);
  });

  it("tells the listener the migrations applied of those pending, from none to all", async () => {
    const third = { "0003_labels.sql": `CREATE TABLE "labels" ("id" INTEGER PRIMARY KEY);` };
    await migrate(connection, migrationsIn(first));
    const told: [number, number | undefined][] = [];
    await migrate(connection, migrationsIn({ ...first, ...second, ...third }), (done, total) =>
      told.push([done, total]),
    );
    expect(told).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    told.length = 0;
    await migrate(connection, migrationsIn({ ...first, ...second, ...third }), (done, total) =>
      told.push([done, total]),
    );
    expect(told).toEqual([[0, 0]]);
  });

  it("leaves nothing behind when a migration fails", async () => {
    await migrate(connection, migrationsIn(first));
    const broken = {
      "0003_broken.sql": `CREATE TABLE "half" ("id" INTEGER);\nINSERT INTO "no_such_table" VALUES (1);`,
    };
    const attempt = migrate(connection, migrationsIn({ ...first, ...second, ...broken }));
    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(attempt).rejects.toThrow(/migration 0003_broken failed/);
    expect(await tableExists("half")).toBe(false);
    expect(await tableExists("tags")).toBe(false);
    expect(await history()).toEqual(["0001_notes"]);
  });

  it("refuses to run when an applied migration was changed", async () => {
    await migrate(connection, migrationsIn(first));
    const changed = { "0001_notes.sql": `CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY);` };
    await expect(migrate(connection, migrationsIn({ ...changed, ...second }))).rejects.toThrow(
      /0001_notes was changed after it was applied/,
    );
    expect(await tableExists("tags")).toBe(false);
  });

  it("renders each migration for this database exactly as the per-database files were, so applied ones keep their checksums", () => {
    // sha256 of prisma/migrations/<provider>/*.sql before the migrations were written once.
    const before: Record<typeof provider, Record<string, string>> = {
      sqlite: {
        "0001_identity": "7627172064c7fede340c68c3ac19a76ed4cf45e89b94c3512653dfff6d2ec8af",
        "0002_sign_in": "c0d0ac4ea364754567638435b786c8ce93ffc28c0a24acb146cd6d16a7708f17",
        "0003_logout": "d128db4f401dabb8f2c48eb2470ae8d62b988809d986e70216f5d475a412f965",
        "0004_catalogs": "cd2da7338a4279e17f4677fc5cc75e0cdd8a2feb41845b6f8352ba7fdb821f50",
        "0005_catalog_publishing": "e1747ef8c8029bccf4ea5b19ff8dbd206b0aba329bb361bedade8aa809db9fdb",
      },
      postgresql: {
        "0001_identity": "4f69477a85c782e6b82bbbb38cbdaa01386b14df72ebb4f615b4878ee7b78f25",
        "0002_sign_in": "e1699eee2e2fea703a583c7d140f64226daa2add47ded811c08d43110dd938ef",
        "0003_logout": "74a91e411139fec197a25956bcc4cf542df25b558d12a1dacad4c4c53ac06e13",
        "0004_catalogs": "a9619c30bdd43ee40d3491252369ee3d2c619f173931d0390f41f46d032471ee",
        "0005_catalog_publishing": "e1747ef8c8029bccf4ea5b19ff8dbd206b0aba329bb361bedade8aa809db9fdb",
      },
    };
    const checksums = Object.fromEntries(
      readMigrations(migrationsDirectory(), provider).map((m) => [m.id, m.checksum]),
    );
    expect(checksums).toMatchObject(before[provider]);
  });

  it("renders the dialect's tokens and refuses unknown ones", () => {
    const [notes] = migrationsIn({ "0001_notes.sql": `CREATE TABLE "notes" ("at" {{timestamp}}); -- {{provider}}` });
    expect(notes.script).toBe(
      `CREATE TABLE "notes" ("at" ${provider === "sqlite" ? "DATETIME" : "TIMESTAMP(3)"}); -- ${provider}`,
    );
    expect(() => migrationsIn({ "0001_notes.sql": `CREATE TABLE "notes" ("at" {{datetime}});` })).toThrow(
      /unknown migration token \{\{datetime\}\}/,
    );
  });

  it("refuses badly named migration files", () => {
    expect(() => migrationsIn({ "1_x.sql": "SELECT 1;" })).toThrow(/is not named NNNN_lower_case_name.sql/);
  });

  it("applies each migration once when two processes start together", async () => {
    const env = { DATABASE_URL: database.target.url, SECRET_KEY: "s".repeat(40) };
    const outputs = await Promise.all([
      runScript("scripts/migrate.ts", [], env),
      runScript("scripts/migrate.ts", [], env),
    ]);
    const migrations = readMigrations(migrationsDirectory(), provider);
    expect(outputs.map((o) => o.code)).toEqual([0, 0]);
    expect(outputs.map((o) => o.stdout.split("\n")[0]).sort()).toEqual([
      `Applied: ${migrations.map((m) => m.id).join(", ")}`,
      "Database is up to date.",
    ]);
    expect(await history()).toEqual(migrations.map((m) => m.id));
    // Both may have created a signing key: one stays active.
    expect(await database.db.signingKey.count({ where: { algorithm: "RS256", supersededAt: null } })).toBe(1);
  });
});
