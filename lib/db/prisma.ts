/**
 * The database connections of a process: a Prisma client for either provider, and beside it the driver connection
 * OptiGate itself opened for the few hot statements that skip Prisma's per-query cost (lib/db/statements/). On
 * PostgreSQL that is the pg pool the client runs on; on SQLite a second better-sqlite3 connection to the same file,
 * whose statements take turns with Prisma's transactions (lib/db/connection-lock.ts). Only Prisma's public
 * driver-adapter interface is used to know when a transaction begins and ends.
 */
import { logger } from "@/lib/observability/logger";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type Database from "better-sqlite3";
import pg from "pg";
import { processCache } from "@/lib/observability/process-cache";
import { DEFAULT_POOL_MAX, type DatabasePooler, type DatabaseTarget } from "@/lib/config/database-url";
import { ConnectionLock } from "@/lib/db/connection-lock";
import { PrismaClient as PostgresPrismaClient } from "@/lib/db/generated/postgresql/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/db/generated/sqlite/client";
import { openSqliteDatabase, SQLITE_BUSY_TIMEOUT_MS } from "@/lib/db/sql-connection";

type SqliteClient = InstanceType<typeof SqlitePrismaClient>;
type ModelName = Exclude<keyof SqliteClient, `$${string}` | symbol>;
/** The model operations OptiGate uses; aggregate and groupBy have types that differ between the two clients. */
type Operation =
  | "findUnique"
  | "findUniqueOrThrow"
  | "findFirst"
  | "findFirstOrThrow"
  | "findMany"
  | "create"
  | "createMany"
  | "update"
  | "updateMany"
  | "upsert"
  | "delete"
  | "deleteMany"
  | "count";

/**
 * What the application uses of a Prisma client: the model operations and raw queries, typed by the models file.
 * Both generated clients satisfy it as they are (the PostgreSQL client's filters take more options, never fewer),
 * so neither client is cast to pass for the other.
 */
export type DbTransaction = { [Model in ModelName]: Pick<SqliteClient[Model], Operation> } & Pick<
  SqliteClient,
  "$queryRawUnsafe" | "$executeRawUnsafe"
>;
export interface Db extends DbTransaction {
  $transaction<R>(
    work: (tx: DbTransaction) => Promise<R>,
    options?: { maxWait?: number; timeout?: number },
  ): Promise<R>;
  $disconnect(): Promise<void>;
}

/**
 * OptiGate's own connection under a Prisma client. On PostgreSQL `pooler` says whether its statements may be
 * prepared under a name (lib/db/run-statement.ts's statementName).
 */
export type Driver =
  | { provider: "sqlite"; database(): Database.Database; lock: ConnectionLock }
  | { provider: "postgresql"; pool: pg.Pool; pooler: DatabasePooler };

export type PostgresDriver = Extract<Driver, { provider: "postgresql" }>;

// Process-wide: the Next.js bundle and the lean front load this module separately but share the clients.
const drivers = processCache("db-drivers", () => new WeakMap<object, Driver>());
/** The SQLite connections opened so far, to close them without opening one. */
const sqliteConnections = processCache(
  "db-sqlite-connections",
  () => new WeakMap<object, () => Database.Database | undefined>(),
);

export function driverOf(db: Db): Driver {
  const driver = drivers.get(db);
  if (!driver) throw new Error("this Prisma client was not made by createPrismaClient, so its driver is unknown");
  return driver;
}

type AdapterFactory = NonNullable<NonNullable<ConstructorParameters<typeof SqlitePrismaClient>[0]>["adapter"]>;
type Adapter = Awaited<ReturnType<AdapterFactory["connect"]>>;

/** Calls of `target` with `replaced` methods of its own, everything else passed through unchanged. */
function withMethods<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in replaced) return replaced[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/**
 * Prisma's SQLite adapter whose transactions hold `lock` from their start to their commit or rollback. Its queries
 * outside a transaction take the lock too: they share the one connection, and one sent while another request's
 * transaction is open would run inside it and be rolled back with it.
 */
function lockingAdapterFactory(factory: AdapterFactory, lock: ConnectionLock): AdapterFactory {
  const inTurn = async <T>(work: () => Promise<T>): Promise<T> => {
    const release = await lock.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  };
  const lockTransactions = (adapter: Adapter): Adapter =>
    withMethods<Adapter>(adapter, {
      queryRaw: (query) => inTurn(() => adapter.queryRaw(query)),
      executeRaw: (query) => inTurn(() => adapter.executeRaw(query)),
      executeScript: (script) => inTurn(() => adapter.executeScript(script)),
      async startTransaction(isolationLevel) {
        const release = await lock.acquire();
        try {
          const transaction = await adapter.startTransaction(isolationLevel);
          const ending = (end: () => Promise<void>) => () => end().finally(release);
          return withMethods(transaction, {
            commit: ending(() => transaction.commit()),
            rollback: ending(() => transaction.rollback()),
          });
        } catch (error) {
          release();
          throw error;
        }
      },
    });
  return withMethods(factory, { connect: async () => lockTransactions(await factory.connect()) });
}

/** Runs each call once the one before it has settled. */
function inTurns(): <T>(call: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (call) => {
    const result = last.then(call);
    last = result.catch(() => undefined);
    return result;
  };
}

/**
 * Prisma's PostgreSQL adapter whose transactions send one query at a time. A query plan reads the relations of an
 * include at once (the registration store reads three), and in a transaction they all go to its one pg client, which
 * queues them and warns that pg@9 will refuse them; here each waits for the one before it instead.
 */
function serialTransactionsAdapterFactory(factory: AdapterFactory): AdapterFactory {
  const serialTransactions = (adapter: Adapter): Adapter =>
    withMethods<Adapter>(adapter, {
      async startTransaction(isolationLevel) {
        const transaction = await adapter.startTransaction(isolationLevel);
        const inTurn = inTurns();
        return withMethods(transaction, {
          queryRaw: (query) => inTurn(() => transaction.queryRaw(query)),
          executeRaw: (query) => inTurn(() => transaction.executeRaw(query)),
        });
      },
    });
  return withMethods(factory, { connect: async () => serialTransactions(await factory.connect()) });
}

export function createPrismaClient(target: DatabaseTarget): Db {
  if (target.provider === "sqlite") {
    const lock = new ConnectionLock();
    const client = new SqlitePrismaClient({
      adapter: lockingAdapterFactory(
        new PrismaBetterSqlite3({ url: target.filename, timeout: SQLITE_BUSY_TIMEOUT_MS }),
        lock,
      ),
    });
    // Opened on first use, like Prisma's own: a client made for a file that cannot be opened fails at its first query.
    let database: Database.Database | undefined;
    drivers.set(client, {
      provider: "sqlite",
      database: () => (database ??= openSqliteDatabase(target.filename, { createFolder: false })),
      lock,
    });
    sqliteConnections.set(client, () => database);
    return client;
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolMax ?? DEFAULT_POOL_MAX });
  // An idle connection the server ends (a restart, a dropped database) must not take the process down with it.
  pool.on("error", (error) => logger.warn({ reason: error.message }, "PostgreSQL connection lost"));
  // No statementNameGenerator: Prisma's queries stay unnamed, and so are safe behind a transaction-mode pooler.
  const client: Db = new PostgresPrismaClient({
    adapter: serialTransactionsAdapterFactory(new PrismaPg(pool, { disposeExternalPool: true })),
  });
  drivers.set(client, { provider: "postgresql", pool, pooler: target.pooler ?? "session" });
  return client;
}

/** Ends the client and OptiGate's own connection beside it. */
export async function closeDb(db: Db): Promise<void> {
  const driver = driverOf(db);
  await db.$disconnect();
  // The pool ends with a PostgreSQL client that has connected; one only OptiGate's statements used is ended here.
  if (driver.provider === "postgresql" && !driver.pool.ended) await driver.pool.end();
  sqliteConnections.get(db)?.()?.close();
}

/** One client per process and database URL; kept on globalThis so that development reloads reuse it. */
const clients = processCache("db-clients", () => new Map<string, Db>());

export function getPrismaClient(target: DatabaseTarget): Db {
  let client = clients.get(target.url);
  if (!client) {
    client = createPrismaClient(target);
    clients.set(target.url, client);
  }
  return client;
}
