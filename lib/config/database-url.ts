/**
 * Decides from DATABASE_URL which database the service uses, embedded SQLite (`file:`) or PostgreSQL, and from
 * DATABASE_POOL_MAX and DATABASE_POOLER how it is reached.
 */

/**
 * What stands between OptiGate and PostgreSQL (DATABASE_POOLER). `session`, the default: the server itself or a
 * pooler that gives a client one server connection for its whole session, which keeps its prepared statements.
 * `transaction`: a pooler that hands each transaction to whichever server connection is free (PgBouncer's
 * pool_mode=transaction, the poolers of serverless platforms), so nothing may outlive one transaction.
 */
const DATABASE_POOLERS = ["session", "transaction"] as const;
export type DatabasePooler = (typeof DATABASE_POOLERS)[number];

export const isDatabasePooler = (value: string): value is DatabasePooler =>
  (DATABASE_POOLERS as readonly string[]).includes(value);

export type DatabaseTarget =
  | { provider: "sqlite"; url: string; filename: string }
  /**
   * `poolMax`: connections this process keeps at most (DATABASE_POOL_MAX; default DEFAULT_POOL_MAX).
   * `pooler`: DATABASE_POOLER; `session` when not given.
   */
  | { provider: "postgresql"; url: string; poolMax?: number; pooler?: DatabasePooler };

export const DEFAULT_POOL_MAX = 10;

export type DatabaseProvider = DatabaseTarget["provider"];

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith("file:")) {
    const filename = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (!filename || filename.includes("?")) {
      throw new Error(`must name a database file, such as file:./data/optigate.db (got "${url}")`);
    }
    return { provider: "sqlite", url, filename };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`is not a valid PostgreSQL URL (got "${redactPassword(url)}")`);
    }
    if (!parsed.hostname && !parsed.searchParams.get("host")) {
      throw new Error(`must name a PostgreSQL host (got "${redactPassword(url)}")`);
    }
    if (parsed.pathname.length <= 1) {
      throw new Error(
        `must name a PostgreSQL database, as in postgresql://host:5432/optigate (got "${redactPassword(url)}")`,
      );
    }
    return { provider: "postgresql", url };
  }
  throw new Error(`must start with file: (SQLite), postgresql:// or postgres:// (got "${redactPassword(url)}")`);
}

/** The environment that makes a process use `target` (DATABASE_URL and its settings): the bench's servers, tests. */
export function databaseEnvironment(target: DatabaseTarget): Record<string, string> {
  const environment: Record<string, string> = { DATABASE_URL: target.url };
  if (target.provider === "postgresql" && target.poolMax !== undefined)
    environment.DATABASE_POOL_MAX = String(target.poolMax);
  if (target.provider === "postgresql" && target.pooler) environment.DATABASE_POOLER = target.pooler;
  return environment;
}

/** For messages and logs: never print a database password. */
export function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}
