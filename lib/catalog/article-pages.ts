/**
 * The sub-catalog's articles, read a page at a time in the order of the unique index (article number, customer
 * group) by keyset, on the driver (lib/db/driver-query.ts): Prisma's per-row cost made a 200,000-article download
 * many times slower than writing its XML. Dates come as YYYY-MM-DD text, which reads the same on both databases.
 */
import type { DatabaseProvider } from "@/lib/db/database-url";
import { driverQuery, type DriverStatement } from "@/lib/db/driver-query";
import type { Db } from "@/lib/db/prisma";

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

const day = (column: string, provider: DatabaseProvider) => (provider === "sqlite" ? `substr("${column}", 1, 10)` : `to_char("${column}", 'YYYY-MM-DD')`);

/** The selected columns, in the order of ArticleRow's fields. */
type ArticleColumns = [string, number, string, number | null, number | null, string | null, string | null, boolean | number];

const statements = new Map<number, DriverStatement>();

/** One statement per number of customer groups (the IN list). */
function pageStatement(groupCount: number): DriverStatement {
  let statement = statements.get(groupCount);
  if (!statement) {
    statement = {
      name: `optigate_article_page_${groupCount}`,
      arrays: true,
      sql: (provider) => `SELECT "article_number", "customer_group", "generic_name", "purchase_price_cents", "retail_price_cents",
        ${day("start_date", provider)}, ${day("end_date", provider)}, "white_label"
        FROM "catalog_articles"
        WHERE "revision_id" = ? AND "customer_group" IN (${Array(groupCount).fill("?").join(", ")}) AND ("article_number", "customer_group") > (?, ?)
        ORDER BY "article_number", "customer_group" LIMIT ${ARTICLE_PAGE_SIZE}`,
    };
    statements.set(groupCount, statement);
  }
  return statement;
}

/** The next page of the revision's articles in the given customer groups, after `after` (from the start without). */
export async function readArticlePage(db: Db, selection: { revisionId: string; groups: number[] }, after?: ArticlePosition): Promise<ArticleRow[]> {
  const position = after ?? { articleNumber: "", customerGroup: -1 };
  const rows = await driverQuery<ArticleColumns>(db, pageStatement(selection.groups.length), [selection.revisionId, ...selection.groups, position.articleNumber, position.customerGroup]);
  return rows.map(([articleNumber, customerGroup, genericName, purchasePriceCents, retailPriceCents, startDate, endDate, whiteLabel]) => ({
    articleNumber,
    customerGroup,
    genericName,
    purchasePriceCents,
    retailPriceCents,
    startDate,
    endDate,
    whiteLabel,
  }));
}
