/**
 * Suppliers' catalogs (`catalogs`): found by catalog identifier or resource key, listed with their revisions, and the
 * published ones, from which both catalog lists are made. Revisions are stored in catalog-revision-store.ts, articles
 * in catalog-article-store.ts.
 *
 * The published catalog list is built from `findReleasedCatalogs` once per value of the change counter
 * "catalog_list" (lib/db/statements/change-counters.ts), which every change the list is made of raises in its own
 * transaction, on whichever instance it is made.
 */
import { processCache } from "@/lib/observability/process-cache";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { Catalog } from "@/lib/db/rows";
import { raiseChangeCounter, readChangeCounter } from "@/lib/db/statements/change-counters";

export type CatalogKey = { catalogId: string } | { resourceKey: string };

const counterReads = processCache("publishedCatalogsCounterReads", () => new WeakMap<Db, Promise<number>>());

/**
 * The change counter of the published list, read once for all requests that ask while a read is under way: each of
 * them could have arrived when it started, so none sees an older list than it could have anyway.
 */
export function readCatalogListVersion(db: Db): Promise<number> {
  let read = counterReads.get(db);
  if (!read) {
    read = readChangeCounter(db, "catalog_list");
    counterReads.set(db, read);
    const done = () => counterReads.get(db) === read && counterReads.delete(db);
    read.then(done, done);
  }
  return read;
}

/** Raises the published list's change counter on its own, after changes made without it (the demo data). */
export async function raiseCatalogListVersion(db: Db): Promise<void> {
  await db.$transaction((tx) => raiseChangeCounter(tx, "catalog_list"));
}

/** Every catalog of an active supplier with a released revision, with its supplier and web services; and every
 * released revision. */
export async function findReleasedCatalogs(db: Db) {
  const catalogs = await db.catalog.findMany({
    where: { revisions: { some: { released: true } }, supplier: { active: true } },
    include: { supplier: { include: { webServices: true } } },
  });
  // One query for every released revision, rather than one per catalog.
  const revisions = await db.catalogRevision.findMany({
    where: { released: true },
    select: { catalogId: true, number: true, comment: true, publishedAt: true, validFrom: true, validUntil: true },
  });
  return { catalogs, revisions };
}

export function findCatalog(db: Db, supplierCompanyId: string, key: CatalogKey): Promise<Catalog | null> {
  return db.catalog.findUnique({
    where:
      "catalogId" in key
        ? { supplierCompanyId_catalogId: { supplierCompanyId, catalogId: key.catalogId } }
        : { supplierCompanyId_resourceKey: { supplierCompanyId, resourceKey: key.resourceKey } },
  });
}

/** The catalog of a supplier (by supplier identifier) with its complete revisions, oldest first. */
export function findCatalogWithCompleteRevisions(db: Db, supplierId: string, catalogId: string) {
  return db.catalog.findFirst({
    where: { catalogId, supplier: { supplierId, kind: "supplier" } },
    include: {
      revisions: {
        where: { complete: true },
        orderBy: { number: "asc" },
        select: { number: true, comment: true, released: true, publishedAt: true },
      },
    },
  });
}

/** The row ids of the supplier's catalogs with a released revision, by catalog identifier, of those named. */
export async function findPublishedCatalogIds(
  db: Pick<DbTransaction, "catalog">,
  supplierCompanyId: string,
  catalogIds: string[],
): Promise<Map<string, string>> {
  const rows = await db.catalog.findMany({
    where: { supplierCompanyId, catalogId: { in: catalogIds }, revisions: { some: { released: true } } },
    select: { id: true, catalogId: true },
  });
  return new Map(rows.map((row) => [row.catalogId, row.id]));
}

export interface RevisionSummary {
  number: number;
  comment: string;
  publishedAt: Date;
  released: boolean;
  complete: boolean;
  validFrom: Date;
  validUntil: Date | null;
  articles: number;
}

export interface CatalogSummary {
  catalogId: string;
  resourceKey: string;
  name: string;
  revisions: RevisionSummary[];
}

/** A supplier's catalogs with their revisions, newest first. */
export async function listSupplierCatalogs(db: Db, supplierCompanyId: string): Promise<CatalogSummary[]> {
  const catalogs = await db.catalog.findMany({
    where: { supplierCompanyId },
    orderBy: { catalogId: "asc" },
    include: { revisions: { orderBy: { number: "desc" }, include: { _count: { select: { articles: true } } } } },
  });
  return catalogs.map((catalog) => ({
    catalogId: catalog.catalogId,
    resourceKey: catalog.resourceKey,
    name: catalog.name,
    revisions: catalog.revisions.map(
      ({ _count, number, comment, publishedAt, released, complete, validFrom, validUntil }) => ({
        number,
        comment,
        publishedAt,
        released,
        complete,
        validFrom,
        validUntil,
        articles: _count.articles,
      }),
    ),
  }));
}
