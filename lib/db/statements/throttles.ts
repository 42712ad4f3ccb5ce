/**
 * The attempt counters behind sign-in and client-authentication throttling (`login_throttles`), each change one
 * statement, so that concurrent requests on any number of processes count exactly: an attempt is reserved (counted)
 * before the slow password check, and of 40 concurrent guesses only as many as the limit allows are ever checked.
 */
import type { DatabaseProvider } from "@/lib/config/database-url";
import { timestampText } from "@/lib/db/dialect";
import type { Db } from "@/lib/db/prisma";
import { runStatement, type NamedStatement } from "@/lib/db/run-statement";

export interface AttemptCount {
  /** Attempts in the current window, this one included (checked, failed, or still being checked). */
  attempts: number;
  windowStartedAt: Date;
  lockedUntil: Date | null;
}

/**
 * Counts one attempt: within the window, or while locked, one more; otherwise the window starts anew with this one.
 * SET expressions see the row as it was, so both CASEs decide on the same old values.
 */
export const RESERVE_ATTEMPT: NamedStatement = {
  name: "optigate_reserve_attempt",
  sql: (
    provider: DatabaseProvider,
  ) => `INSERT INTO "login_throttles" ("key", "failures", "window_started_at", "locked_until") VALUES (?, 1, ?, NULL)
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN "login_throttles"."window_started_at" > ? OR "login_throttles"."locked_until" > ? THEN "login_throttles"."failures" + 1 ELSE 1 END,
      "window_started_at" = CASE WHEN "login_throttles"."window_started_at" > ? OR "login_throttles"."locked_until" > ? THEN "login_throttles"."window_started_at" ELSE ? END
    RETURNING "failures", ${timestampText("window_started_at", provider)} AS "window_started_at", ${timestampText("locked_until", provider)} AS "locked_until"`,
};

/** Starts a lock only where none is in force: a failure that was checked while the key was being locked adds none. */
export const LOCK_ATTEMPTS: NamedStatement = {
  name: "optigate_lock_attempts",
  sql: () => `UPDATE "login_throttles" SET "locked_until" = ?
    WHERE "key" = ? AND "failures" >= ? AND ("locked_until" IS NULL OR "locked_until" <= ?) RETURNING "key"`,
};

export const RELEASE_ATTEMPT: NamedStatement = {
  name: "optigate_release_attempt",
  sql: () => `UPDATE "login_throttles" SET "failures" = "failures" - 1 WHERE "key" = ? AND "failures" > 0`,
};

export const CLEAR_ATTEMPTS: NamedStatement = {
  name: "optigate_clear_attempts",
  sql: () => `DELETE FROM "login_throttles" WHERE "key" = ?`,
};

export const COUNT_ATTEMPTS: NamedStatement = {
  name: "optigate_count_attempts",
  sql: () => `SELECT "failures" FROM "login_throttles" WHERE "key" = ? AND "window_started_at" > ?`,
};

const date = (value: unknown) => new Date(String(value));

/** Counts an attempt under `key` in a window of `windowSeconds`; returns the count and any lock. */
export async function reserveAttempt(
  db: Db,
  key: string,
  windowSeconds: number,
  now = new Date(),
): Promise<AttemptCount> {
  const windowOpenSince = new Date(now.getTime() - windowSeconds * 1000);
  const [row] = await runStatement<Record<string, unknown>>(db, RESERVE_ATTEMPT, [
    key,
    now,
    windowOpenSince,
    now,
    windowOpenSince,
    now,
    now,
  ]);
  return {
    attempts: Number(row.failures),
    windowStartedAt: date(row.window_started_at),
    lockedUntil: row.locked_until ? date(row.locked_until) : null,
  };
}

/** Locks `key` until `until` when its attempts have reached `limit` and it is not locked at `now`; whether it did. */
export async function lockWhenReached(db: Db, key: string, limit: number, until: Date, now: Date): Promise<boolean> {
  return (await runStatement(db, LOCK_ATTEMPTS, [until, key, limit, now])).length > 0;
}

/** Takes a reserved attempt back (it succeeded, so it does not count against the key). */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await runStatement(db, RELEASE_ATTEMPT, [key]);
}

/** Forgets every attempt under `key`. */
export async function clearAttempts(db: Db, key: string): Promise<void> {
  await runStatement(db, CLEAR_ATTEMPTS, [key]);
}

/** The attempts under `key` in a window of `windowSeconds` still open at `now`; 0 when there are none. */
export async function attemptsInWindow(db: Db, key: string, windowSeconds: number, now: Date): Promise<number> {
  const windowOpenSince = new Date(now.getTime() - windowSeconds * 1000);
  const [row] = await runStatement<Record<string, unknown>>(db, COUNT_ATTEMPTS, [key, windowOpenSince]);
  return row ? Number(row.failures) : 0;
}
