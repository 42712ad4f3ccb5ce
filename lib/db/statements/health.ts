/** The health report's statements: does the database answer, and which migrations has it applied? */
import type { Db } from "@/lib/db/prisma";
import { runStatement, type NamedStatement } from "@/lib/db/run-statement";

export const PING: NamedStatement = { name: "optigate_ping", sql: () => `SELECT 1 AS "ok"` };
export const APPLIED_MIGRATIONS: NamedStatement = {
  name: "optigate_applied_migrations",
  sql: () => `SELECT "id" FROM "schema_migrations"`,
};

export async function ping(db: Db): Promise<void> {
  await runStatement(db, PING, []);
}

/** The ids in the history table; none when there is no history table yet. */
export async function appliedMigrationIds(db: Db): Promise<string[]> {
  try {
    return (await runStatement<{ id: string }>(db, APPLIED_MIGRATIONS, [])).map((row) => row.id);
  } catch {
    return [];
  }
}
