/**
 * Single use of signed assertions (RFC 7523 §3 item 7): one statement records a use and says whether it is the
 * first, so that of two instances receiving the same assertion at once exactly one accepts it. A key whose earlier
 * use has expired (and was not purged yet) may be used again: its assertion could not be replayed anyway.
 */
import type { Db } from "@/lib/db/prisma";
import { runStatement, type NamedStatement } from "@/lib/db/run-statement";

export const USE_ASSERTION: NamedStatement = {
  name: "optigate_use_assertion",
  sql: () => `INSERT INTO "used_assertions" ("key", "expires_at") VALUES (?, ?)
    ON CONFLICT ("key") DO UPDATE SET "expires_at" = excluded."expires_at" WHERE "used_assertions"."expires_at" <= ?
    RETURNING "key"`,
};

/** Records the use of `key` until `expiresAt`; false when it was used before and that use has not expired. */
export async function useAssertion(db: Db, key: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  const rows = await runStatement(db, USE_ASSERTION, [key, expiresAt, now]);
  return rows.length === 1;
}
