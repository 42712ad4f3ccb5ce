/**
 * Activity per hour (`activity_counts`): one statement adds a count to its hour's row, creating it when it is the
 * hour's first, so that any number of processes add to the same row at once without losing a count; the reads sum
 * a period's rows in the database, per hour or per company.
 */
import { timestampText } from "@/lib/db/dialect";
import type { Db } from "@/lib/db/prisma";
import { runStatement, type NamedStatement } from "@/lib/db/run-statement";

export type ActivityKind =
  "sign_in.succeeded" | "sign_in.failed" | "sign_in.locked" | `token.${string}` | "catalog.download";

/** Some activity of one kind, for one company ('' where none is concerned), within the hour it happened in. */
export interface ActivityIncrement {
  at: Date;
  companyId: string;
  kind: ActivityKind;
  count: number;
}

export interface HourlyActivity {
  hour: Date;
  kind: ActivityKind;
  count: number;
}

export interface CompanyActivity {
  companyId: string;
  kind: ActivityKind;
  count: number;
}

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date): Date => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

export const ADD_ACTIVITY: NamedStatement = {
  name: "optigate_add_activity",
  sql: () => `INSERT INTO "activity_counts" ("hour", "company_id", "kind", "count") VALUES (?, ?, ?, ?)
    ON CONFLICT ("hour", "company_id", "kind") DO UPDATE SET "count" = "activity_counts"."count" + excluded."count"`,
};

const hourly = (companyFilter: string) => (provider: "sqlite" | "postgresql") =>
  `SELECT ${timestampText("hour", provider)} AS "hour", "kind", SUM("count") AS "count" FROM "activity_counts"
    WHERE "hour" >= ? AND "kind" LIKE ?${companyFilter} GROUP BY "hour", "kind" ORDER BY "hour", "kind"`;

export const HOURLY_ACTIVITY: NamedStatement = { name: "optigate_hourly_activity", sql: hourly("") };

export const HOURLY_COMPANY_ACTIVITY: NamedStatement = {
  name: "optigate_hourly_company_activity",
  sql: hourly(` AND "company_id" = ?`),
};

export const ACTIVITY_BY_COMPANY: NamedStatement = {
  name: "optigate_activity_by_company",
  sql: () => `SELECT "company_id", "kind", SUM("count") AS "count" FROM "activity_counts"
    WHERE "hour" >= ? AND "kind" LIKE ? GROUP BY "company_id", "kind" ORDER BY "company_id", "kind"`,
};

export async function addActivity(db: Db, increments: readonly ActivityIncrement[]): Promise<void> {
  for (const { at, companyId, kind, count } of increments)
    await runStatement(db, ADD_ACTIVITY, [hourOf(at), companyId, kind, count]);
}

/** The sums per hour and kind since `since` of the kinds `pattern` (SQL LIKE) matches, of one company or all. */
export async function readHourlyActivity(
  db: Db,
  since: Date,
  pattern: string,
  companyId?: string,
): Promise<HourlyActivity[]> {
  const rows =
    companyId === undefined
      ? await runStatement<Record<string, unknown>>(db, HOURLY_ACTIVITY, [since, pattern])
      : await runStatement<Record<string, unknown>>(db, HOURLY_COMPANY_ACTIVITY, [since, pattern, companyId]);
  return rows.map((row) => ({
    hour: new Date(String(row.hour)),
    kind: String(row.kind) as ActivityKind,
    count: Number(row.count),
  }));
}

/** The sums per company and kind since `since` of the kinds `pattern` (SQL LIKE) matches. */
export async function readActivityByCompany(db: Db, since: Date, pattern: string): Promise<CompanyActivity[]> {
  const rows = await runStatement<Record<string, unknown>>(db, ACTIVITY_BY_COMPANY, [since, pattern]);
  return rows.map((row) => ({
    companyId: String(row.company_id),
    kind: String(row.kind) as ActivityKind,
    count: Number(row.count),
  }));
}
