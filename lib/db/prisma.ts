/**
 * Prisma clients for both providers. The two generated clients come from schema files with identical models
 * (checked by a test), so the PostgreSQL client is used through the SQLite client's type: application code is
 * written once against `Db`.
 */
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { DatabaseTarget } from "@/lib/db/database-url";
import { PrismaClient as PostgresPrismaClient } from "@/lib/db/generated/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/db/generated/sqlite/client";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sql-connection";

export type Db = InstanceType<typeof SqlitePrismaClient>;
export type { Prisma } from "@/lib/db/generated/sqlite/client";

export function createPrismaClient(target: DatabaseTarget): Db {
  if (target.provider === "sqlite") {
    return new SqlitePrismaClient({
      adapter: new PrismaBetterSqlite3({ url: target.filename, timeout: SQLITE_BUSY_TIMEOUT_MS }),
    });
  }
  const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: target.url }) });
  return client as unknown as Db;
}

/** One client per process and database URL; kept on globalThis so that development reloads reuse it. */
const clients = ((globalThis as { __optigateDb?: Map<string, Db> }).__optigateDb ??= new Map());

export function getPrismaClient(target: DatabaseTarget): Db {
  let client = clients.get(target.url);
  if (!client) {
    client = createPrismaClient(target);
    clients.set(target.url, client);
  }
  return client;
}
