/**
 * A catalog revision's articles: read a page at a time in the order of the unique index (article number, customer
 * group) by keyset, and written in batches, on OptiGate's own connection (lib/db/run-statement.ts): Prisma's per-row
 * cost made a 200,000-article download many times slower than writing its XML, and an import take a minute. Dates
 * come as YYYY-MM-DD text, which reads the same on both databases.
 */
import { dayText } from "@/lib/db/dialect";
import { metrics } from "@/lib/observability/metrics";
import type { Db } from "@/lib/db/prisma";
import {
  insertRows,
  runStatement,
  type InsertColumn,
  type NamedStatement,
  type SqlValue,
} from "@/lib/db/run-statement";

export const ARTICLE_PAGE_SIZE = 2000;

export interface ArticlePosition {
  articleNumber: string;
  customerGroup: number;
}

export interface ArticleRow extends ArticlePosition {
  genericName: string;
  purchasePriceCents: number | null;
  retailPriceCents: number | null;
  /** YYYY-MM-DD */
  startDate: string | null;
  endDate: string | null;
  /** 0 or 1 on SQLite */
  whiteLabel: boolean | number;
}

/** The selected columns, in the order of ArticleRow's fields. */
type ArticleColumns = [
  string,
  number,
  string,
  number | null,
  number | null,
  string | null,
  string | null,
  boolean | number,
];

const statements = new Map<number | "all", NamedStatement>();

/** One statement per number of customer groups (the IN list), and one for every group. */
function articlePageStatement(groups: number | "all"): NamedStatement {
  let statement = statements.get(groups);
  if (!statement) {
    const inGroups = groups === "all" ? "" : `AND "customer_group" IN (${Array(groups).fill("?").join(", ")})`;
    statement = {
      name: `optigate_article_page_${groups}`,
      arrays: true,
      sql: (
        provider,
      ) => `SELECT "article_number", "customer_group", "generic_name", "purchase_price_cents", "retail_price_cents",
        ${dayText("start_date", provider)}, ${dayText("end_date", provider)}, "white_label"
        FROM "catalog_articles"
        WHERE "revision_id" = ? ${inGroups} AND ("article_number", "customer_group") > (?, ?)
        ORDER BY "article_number", "customer_group" LIMIT ?`,
    };
    statements.set(groups, statement);
  }
  return statement;
}

/**
 * The next page of the revision's articles in the given customer groups (or all), after `after` (from the start
 * without).
 */
export async function readArticlePage(
  db: Db,
  selection: { revisionId: string; groups: number[] | "all" },
  after?: ArticlePosition,
  limit = ARTICLE_PAGE_SIZE,
): Promise<ArticleRow[]> {
  const position = after ?? { articleNumber: "", customerGroup: -1 };
  const groups = selection.groups === "all" ? [] : selection.groups;
  const values = [selection.revisionId, ...groups, position.articleNumber, position.customerGroup, limit];
  const statement = articlePageStatement(selection.groups === "all" ? "all" : groups.length);
  metrics.catalogArticlePages.inc();
  const rows = await runStatement<ArticleColumns>(db, statement, values);
  return rows.map(
    ([
      articleNumber,
      customerGroup,
      genericName,
      purchasePriceCents,
      retailPriceCents,
      startDate,
      endDate,
      whiteLabel,
    ]) => ({
      articleNumber,
      customerGroup,
      genericName,
      purchasePriceCents,
      retailPriceCents,
      startDate,
      endDate,
      whiteLabel,
    }),
  );
}

const ARTICLE_COLUMNS: InsertColumn[] = [
  { name: "id", type: "text" },
  { name: "revision_id", type: "text" },
  { name: "article_number", type: "text" },
  { name: "generic_name", type: "text" },
  { name: "customer_group", type: "integer" },
  { name: "purchase_price_cents", type: "integer" },
  { name: "retail_price_cents", type: "integer" },
  { name: "start_date", type: "timestamp(3)" },
  { name: "end_date", type: "timestamp(3)" },
  { name: "white_label", type: "boolean" },
];

export interface NewArticle {
  id: string;
  revisionId: string;
  articleNumber: string;
  genericName: string;
  customerGroup: number;
  purchasePriceCents: number | null;
  retailPriceCents: number | null;
  startDate: Date | null;
  endDate: Date | null;
  whiteLabel: boolean;
}

/** Writes a batch of articles in one statement (PostgreSQL) or one transaction (SQLite). */
export function insertArticles(db: Db, articles: NewArticle[]): Promise<void> {
  const rows: SqlValue[][] = articles.map((a) => [
    a.id,
    a.revisionId,
    a.articleNumber,
    a.genericName,
    a.customerGroup,
    a.purchasePriceCents,
    a.retailPriceCents,
    a.startDate,
    a.endDate,
    a.whiteLabel,
  ]);
  return insertRows(db, "catalog_articles", ARTICLE_COLUMNS, rows);
}
