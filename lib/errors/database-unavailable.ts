/**
 * Errors that say the database cannot be reached now (refused, dropped, shutting down, not accepting connections,
 * too many connections, busy beyond the timeout): the request is answered 503 and logged in one line, the process
 * keeps serving, and the pool connects again once the database is back.
 */
import { logger } from "@/lib/observability/logger";
const UNAVAILABLE_CODES = new Set([
  // Node's sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  // PostgreSQL: connection exceptions, admin/crash shutdown, cannot connect now, too many connections
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  // Prisma: cannot reach the server, the server closed the connection
  "P1001",
  "P1017",
  // SQLite: the file is locked longer than the busy timeout, or cannot be opened
  "SQLITE_BUSY",
  "SQLITE_CANTOPEN",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|not currently accepting connections|Can't reach database server|timeout exceeded when trying to connect/i;

function causes(error: unknown): unknown[] {
  const found: unknown[] = [];
  for (let current = error; current && found.length < 8;) {
    found.push(current);
    const adapter = (current as { meta?: { driverAdapterError?: { cause?: unknown } } }).meta?.driverAdapterError;
    if (adapter?.cause) found.push(adapter.cause);
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((cause) => {
    const { code, originalCode, message } = cause as { code?: unknown; originalCode?: unknown; message?: unknown };
    return (
      [code, originalCode].some((value) => typeof value === "string" && UNAVAILABLE_CODES.has(value)) ||
      (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message))
    );
  });
}

/** The one log line for it: what the database said, never a stack. */
export function logDatabaseUnavailable(where: string, error: unknown): void {
  const said = causes(error)
    .map((cause) => (cause as { message?: unknown }).message)
    .find((message) => typeof message === "string" && message.length < 300);
  logger.error(
    {
      where,
      reason: String(said ?? "no detail")
        .trim()
        .split("\n")[0],
    },
    "the database is unavailable; answered 503",
  );
}
