/**
 * A database of the test provider without migrations, and a connection to it, for tests that migrate up to a point,
 * write rows as they were then, and check what a later migration makes of them.
 */
import { afterAll, beforeAll } from "vitest";
import { openSqlConnection, type SqlConnection } from "@/lib/db/sql-connection";
import { adHoc, createTestDatabase, type TestDatabase } from "./test-database";

export interface MigrationDatabase {
  connection: SqlConnection;
  /** Runs one ad-hoc statement with `?` placeholders. */
  run: (sql: string, values?: (string | number | boolean)[]) => Promise<unknown>;
}

export function useMigrationDatabase(): () => MigrationDatabase {
  let database: TestDatabase;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    connection = await openSqlConnection(database.target);
  });
  afterAll(async () => {
    await connection.close();
    await database.drop();
  });
  return () => ({ connection, run: (sql, values = []) => connection.query(adHoc(sql), values) });
}
