/** Decides from DATABASE_URL which database the service uses: embedded SQLite (`file:`) or PostgreSQL. */

export type DatabaseTarget =
  | { provider: "sqlite"; url: string; filename: string }
  /** `poolMax`: connections this process keeps at most (DATABASE_POOL_MAX; default DEFAULT_POOL_MAX). */
  | { provider: "postgresql"; url: string; poolMax?: number };

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

/** For messages and logs: never print a database password. */
export function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}
