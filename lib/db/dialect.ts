/**
 * Everything in which OptiGate's own SQL differs between SQLite and PostgreSQL, in one place. Statements are written
 * once (lib/db/statements/) with `?` parameters; timestamps go in as UTC text and come out as ISO text; days come
 * out as YYYY-MM-DD; booleans go into SQLite as 0/1. Both databases take `INSERT … ON CONFLICT … DO UPDATE` and
 * `RETURNING` as written, so those need no translation. Migrations (prisma/migrations/) are written once as well, with
 * the tokens {{timestamp}} (the column type), {{provider}} and {{json}} (the type a JSON text is cast to for `->>`).
 */
import type { DatabaseProvider } from "@/lib/config/database-url";

export type SqlValue = string | number | boolean | Date | null;

const MIGRATION_TOKENS: Record<DatabaseProvider, Record<string, string>> = {
  sqlite: { timestamp: "DATETIME", provider: "sqlite", json: "TEXT" },
  postgresql: { timestamp: "TIMESTAMP(3)", provider: "postgresql", json: "jsonb" },
};

/** A migration's text for one database; an unknown token is an error, never left in the SQL. */
export function renderMigration(source: string, provider: DatabaseProvider): string {
  return source.replace(/\{\{(\w+)\}\}/g, (token, name: string) => {
    const value = MIGRATION_TOKENS[provider][name];
    if (value === undefined) throw new Error(`unknown migration token ${token}`);
    return value;
  });
}

/** PostgreSQL numbers its parameters: `?` becomes `$1`, `$2`, … (no statement here has a `?` inside a literal). */
export function numberedPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/**
 * A parameter as the database stores it. Timestamps: SQLite keeps Prisma's ISO text (`…+00:00`), which compares
 * correctly as text; PostgreSQL's `timestamp(3)` takes UTC text and ignores its zone. Booleans: SQLite has integers.
 */
export function driverValue(value: SqlValue, provider: DatabaseProvider): string | number | boolean | null {
  if (value instanceof Date)
    return provider === "sqlite" ? value.toISOString().replace("Z", "+00:00") : value.toISOString();
  if (typeof value === "boolean" && provider === "sqlite") return value ? 1 : 0;
  return value;
}

/** A timestamp column read as ISO text in UTC, the same on both databases. */
export function timestampText(column: string, provider: DatabaseProvider): string {
  return provider === "sqlite" ? `"${column}"` : `to_char("${column}", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A timestamp column read as its day, YYYY-MM-DD. */
export function dayText(column: string, provider: DatabaseProvider): string {
  return provider === "sqlite" ? `substr("${column}", 1, 10)` : `to_char("${column}", 'YYYY-MM-DD')`;
}

/** The PostgreSQL array type of a column, for inserting many rows as one `unnest` of arrays. */
export type ColumnType = "text" | "integer" | "boolean" | "timestamp(3)";

/**
 * An INSERT of many rows: on PostgreSQL one statement with an array parameter per column (`unnest`), whatever the
 * number of rows; on SQLite one row's INSERT, run for each row inside one transaction.
 */
export function manyRowsInsert(
  table: string,
  columns: { name: string; type: ColumnType }[],
  provider: DatabaseProvider,
): string {
  const names = columns.map((column) => `"${column.name}"`).join(", ");
  if (provider === "sqlite") return `INSERT INTO "${table}" (${names}) VALUES (${columns.map(() => "?").join(", ")})`;
  return `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(", ")})`;
}
