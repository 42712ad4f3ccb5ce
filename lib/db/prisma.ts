/**
 * Prisma clients for both providers. The two generated clients come from schema files with identical models
 * (checked by a test), so the PostgreSQL client is used through the SQLite client's type: application code is
 * written once against `Db`.
 */
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseTarget } from "@/lib/db/database-url";
import { PrismaClient as PostgresPrismaClient } from "@/lib/db/generated/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/db/generated/sqlite/client";
import { SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sql-connection";
import { processCache } from "@/lib/server/process-cache";

export type Db = InstanceType<typeof SqlitePrismaClient>;
export type { Prisma } from "@/lib/db/generated/sqlite/client";

/** The driver under a Prisma client, for the few hot statements that skip Prisma's per-query cost (token-statements.ts). */
export type Driver = { provider: "sqlite"; database(): Database.Database | undefined } | { provider: "postgresql"; pool: pg.Pool };

// Process-wide: the Next.js bundle and the lean front load this module separately but share the clients.
const drivers = processCache("db-drivers", () => new WeakMap<object, Driver>());

export function driverOf(db: Db): Driver {
  const driver = drivers.get(db);
  if (!driver) throw new Error("this Prisma client was not made by createPrismaClient, so its driver is unknown");
  return driver;
}

/** Keeps the better-sqlite3 connection the adapter opens, which Prisma itself does not expose. */
class SqliteAdapterFactory extends PrismaBetterSqlite3 {
  database?: Database.Database;

  override async connect() {
    const adapter = await super.connect();
    this.database = (adapter as unknown as { client: Database.Database }).client;
    return adapter;
  }
}

export function createPrismaClient(target: DatabaseTarget): Db {
  if (target.provider === "sqlite") {
    const factory = new SqliteAdapterFactory({ url: target.filename, timeout: SQLITE_BUSY_TIMEOUT_MS });
    const client = new SqlitePrismaClient({ adapter: factory });
    drivers.set(client, { provider: "sqlite", database: () => factory.database });
    return client;
  }
  const pool = new pg.Pool({ connectionString: target.url });
  const client = new PostgresPrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) as unknown as Db;
  drivers.set(client, { provider: "postgresql", pool });
  return client;
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
