/**
 * Change counters (`change_counters`): a process that keeps something built from the database (the published catalog
 * list) reads the counter on each use, one cheap statement, and rebuilds only when another change raised it, on
 * whichever instance that change was made.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { runStatement, type NamedStatement } from "@/lib/db/run-statement";

export type ChangeCounterName = "catalog_list";

export const READ_CHANGE_COUNTER: NamedStatement = {
  name: "optigate_read_change_counter",
  sql: () => `SELECT "value" FROM "change_counters" WHERE "name" = ?`,
};

/** The counter's value; 0 before its first change. */
export async function readChangeCounter(db: Db, name: ChangeCounterName): Promise<number> {
  const rows = await runStatement<{ value: number | string }>(db, READ_CHANGE_COUNTER, [name]);
  return rows.length === 0 ? 0 : Number(rows[0].value);
}

/** Raises the counter; pass the transaction that makes the change, so that the two commit together. */
export async function raiseChangeCounter(db: DbTransaction, name: ChangeCounterName): Promise<void> {
  await db.changeCounter.upsert({ where: { name }, create: { name, value: 1 }, update: { value: { increment: 1 } } });
}
