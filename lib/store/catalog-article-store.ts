/**
 * The articles of catalog revisions (`catalog_articles`). Downloads read them a page at a time and imports write them
 * in batches through named statements on OptiGate's own connection (lib/db/statements/catalog-articles.ts), where
 * Prisma's per-row cost would make a large catalog many times slower; the demo data set writes its few through Prisma,
 * inside the transaction that stores their catalog.
 */
import type { DbTransaction } from "@/lib/db/prisma";

export { ARTICLE_PAGE_SIZE, type ArticlePosition, type ArticleRow } from "@/lib/db/statements/catalog-articles";

/** A revision with its articles as the demo data set describes them. */
export interface NewRevision {
  number: number;
  comment: string;
  publishedAt: Date;
  released: boolean;
  validFrom: Date;
  validUntil: Date | null;
  articles: {
    articleNumber: string;
    genericName: string;
    customerGroup: number;
    purchasePriceCents: number;
    retailPriceCents: number;
    whiteLabel?: boolean;
    startDate: Date | null;
    endDate: Date | null;
  }[];
}

/** Stores a revision of the catalog (row id) and its articles; pass the transaction that stores the catalog. */
export async function storeRevisionWithArticles(
  tx: DbTransaction,
  catalogKey: string,
  { articles, ...revision }: NewRevision,
): Promise<void> {
  const row = await tx.catalogRevision.create({ data: { ...revision, catalogId: catalogKey } });
  await tx.catalogArticle.createMany({
    data: articles.map((article) => ({ ...article, id: crypto.randomUUID(), revisionId: row.id })),
  });
}
