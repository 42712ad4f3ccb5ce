/**
 * The migrator's statements: its history table (which migrations a database has applied, with their checksums) and,
 * on PostgreSQL, the database-wide lock its run holds. They run on the migrator's own connection (lib/db/sql-connection.ts).
 */
import type { NamedStatement } from "@/lib/db/run-statement";

export const CREATE_HISTORY: NamedStatement = {
  name: "optigate_create_history",
  // SQLite's history table has kept its timestamps as TEXT since the first release.
  sql: (provider) => `CREATE TABLE IF NOT EXISTS "schema_migrations" (
    "id" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" ${provider === "sqlite" ? "TEXT" : "TIMESTAMP(3)"} NOT NULL)`,
};

export const READ_HISTORY: NamedStatement = {
  name: "optigate_read_history",
  sql: () => `SELECT "id", "checksum" FROM "schema_migrations" ORDER BY "id"`,
};

export const RECORD_MIGRATION: NamedStatement = {
  name: "optigate_record_migration",
  sql: () => `INSERT INTO "schema_migrations" ("id", "checksum", "applied_at") VALUES (?, ?, ?)`,
};

/** PostgreSQL: an advisory lock held until the transaction ends (SQLite's BEGIN IMMEDIATE locks the file instead). */
export const TAKE_MIGRATION_LOCK: NamedStatement = {
  name: "optigate_take_migration_lock",
  sql: () => `SELECT pg_advisory_xact_lock(?)`,
};
