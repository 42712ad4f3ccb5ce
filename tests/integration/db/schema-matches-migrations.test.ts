/** The SQL migrations must create exactly what the Prisma schema of the same provider describes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlConnection, type SqlConnection } from "@/lib/db/sql-connection";
import { readSchemaTables, type ExpectedColumn } from "../../helpers/prisma-schema";
import { adHoc, createTestDatabase, testProvider, type TestDatabase } from "../../helpers/test-database";

const provider = testProvider();
const TYPES: Record<typeof provider, Record<string, string>> = {
  sqlite: {
    String: "TEXT",
    Boolean: "BOOLEAN",
    DateTime: "DATETIME",
    Int: "INTEGER",
    Decimal: "DECIMAL",
    BigInt: "BIGINT",
    Float: "REAL",
  },
  postgresql: {
    String: "text",
    Boolean: "boolean",
    DateTime: "timestamp without time zone",
    Int: "integer",
    Decimal: "numeric",
    BigInt: "bigint",
    Float: "double precision",
  },
};

let database: TestDatabase;
let connection: SqlConnection;

async function actualColumns(table: string): Promise<ExpectedColumn[]> {
  if (provider === "sqlite") {
    const rows = await connection.query<{ name: string; type: string; notnull: number | bigint; pk: number | bigint }>(
      adHoc(`PRAGMA table_info("${table}")`),
    );
    return rows.map((row) => ({
      name: row.name,
      type: row.type,
      nullable: Number(row.notnull) === 0 && Number(row.pk) === 0,
    }));
  }
  const rows = await connection.query<{ column_name: string; data_type: string; is_nullable: string }>(
    adHoc(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?`,
    ),
    [table],
  );
  return rows.map((row) => ({ name: row.column_name, type: row.data_type, nullable: row.is_nullable === "YES" }));
}

async function actualUniqueKeys(table: string): Promise<string[]> {
  const definitions =
    provider === "sqlite"
      ? (
          await connection.query<{ sql: string }>(
            adHoc(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`),
            [table],
          )
        ).map((r) => r.sql)
      : (
          await connection.query<{ indexdef: string }>(
            adHoc(`SELECT indexdef FROM pg_indexes WHERE tablename = ? AND indexname NOT LIKE '%_pkey'`),
            [table],
          )
        ).map((r) => r.indexdef);
  return definitions
    .filter((sql) => /CREATE UNIQUE INDEX/i.test(sql))
    .map((sql) => /\(([^)]+)\)\s*$/.exec(sql)![1].replace(/["\s]/g, ""))
    .sort();
}

beforeAll(async () => {
  database = await createTestDatabase();
  connection = await openSqlConnection(database.target);
});
afterAll(async () => {
  await connection.close();
  await database.drop();
});

describe(`migrations on ${provider}`, () => {
  const tables = readSchemaTables(`prisma/${provider}/schema.prisma`);

  it("create exactly the schema's tables (plus the migration history)", async () => {
    const rows =
      provider === "sqlite"
        ? await connection.query<{ name: string }>(
            adHoc(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`),
          )
        : await connection.query<{ name: string }>(
            adHoc(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`),
          );
    expect(rows.map((row) => row.name).sort()).toEqual([...tables.map((t) => t.name), "schema_migrations"].sort());
  });

  it.each(tables.map((table) => [table.name, table] as const))(
    "create %s with the schema's columns, types, nullability and unique keys",
    async (name, table) => {
      const expected = table.columns
        .map((column) => ({ ...column, type: TYPES[provider][column.type] }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const actual = (await actualColumns(name)).sort((a, b) => a.name.localeCompare(b.name));
      expect(actual).toEqual(expected);
      expect(await actualUniqueKeys(name)).toEqual(table.uniqueKeys);
    },
  );
});
