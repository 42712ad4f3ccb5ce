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
import { bindDb } from "@/lib/store/bind-db";
import type { Catalog, CatalogRevision } from "@/lib/store/models/catalog";
import type { Company, SupplierWebService } from "@/lib/store/models/user";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { Catalog as CatalogRow } from "@/lib/db/rows";
import { raiseChangeCounter, readChangeCounter } from "@/lib/db/statements/change-counters";
import {
  insertArticles,
  readArticlePage,
  type ArticlePosition,
  type ArticleRow,
  type NewArticle,
} from "@/lib/db/statements/catalog-articles";
import {
  completeRevision,
  discardRevision,
  findRevision,
  isReleasedRevision,
  markRevisionReleased,
  startRevision,
  storeCatalogWithRevisions,
  type NewCatalog,
  type StartedRevision,
} from "@/lib/store/catalog-revision-store";
import type { NewRevision } from "@/lib/store/catalog-article-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { CatalogHeader } from "@/lib/store/models/catalog";

type CatalogKey = { catalogId: string } | { resourceKey: string };

/** A catalog row with its description's JSON columns read. */
function catalogFromRow(row: CatalogRow): Catalog {
  return {
    ...row,
    validCountries: JSON.parse(row.validCountries) as string[],
    productGroups: JSON.parse(row.productGroups) as string[],
  };
}

const counterReads = processCache("publishedCatalogsCounterReads", () => new WeakMap<Db, Promise<number>>());

/**
 * The change counter of the published list, read once for all requests that ask while a read is under way: each of
 * them could have arrived when it started, so none sees an older list than it could have anyway.
 */
function readCatalogListVersion(db: Db): Promise<number> {
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

/** The published catalogs with their suppliers, and every released revision. */
interface ReleasedCatalogs {
  catalogs: (Catalog & { supplier: Company & { webServices: SupplierWebService[] } })[];
  revisions: Pick<CatalogRevision, "catalogId" | "number" | "comment" | "publishedAt" | "validFrom" | "validUntil">[];
}

/** Every catalog of an active supplier with a released revision, with its supplier and web services; and every
 * released revision. */
async function findReleasedCatalogs(db: Db): Promise<ReleasedCatalogs> {
  const catalogs = await db.catalog.findMany({
    where: { revisions: { some: { released: true } }, supplier: { active: true } },
    include: { supplier: { include: { webServices: true } } },
  });
  // One query for every released revision, rather than one per catalog.
  const revisions = await db.catalogRevision.findMany({
    where: { released: true },
    select: { catalogId: true, number: true, comment: true, publishedAt: true, validFrom: true, validUntil: true },
  });
  return {
    catalogs: catalogs.map((catalog) => ({ ...catalogFromRow(catalog), supplier: catalog.supplier })),
    revisions,
  };
}

async function findCatalog(db: Db, supplierCompanyId: string, key: CatalogKey): Promise<Catalog | null> {
  const row = await db.catalog.findUnique({
    where:
      "catalogId" in key
        ? { supplierCompanyId_catalogId: { supplierCompanyId, catalogId: key.catalogId } }
        : { supplierCompanyId_resourceKey: { supplierCompanyId, resourceKey: key.resourceKey } },
  });
  return row && catalogFromRow(row);
}

/** The catalog of a supplier (by supplier identifier) with its complete revisions, oldest first. */
async function findCatalogWithCompleteRevisions(
  db: Db,
  supplierId: string,
  catalogId: string,
): Promise<CatalogWithRevisions | null> {
  const row = await db.catalog.findFirst({
    where: { catalogId, supplier: { supplierId, kind: "supplier" } },
    include: {
      revisions: {
        where: { complete: true },
        orderBy: { number: "asc" },
        select: { number: true, comment: true, released: true, publishedAt: true },
      },
    },
  });
  return row && { ...catalogFromRow(row), revisions: row.revisions };
}

type CatalogWithRevisions = Catalog & {
  revisions: Pick<CatalogRevision, "number" | "comment" | "released" | "publishedAt">[];
};

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

export type RevisionSummary = Pick<
  CatalogRevision,
  "number" | "comment" | "publishedAt" | "released" | "complete" | "validFrom" | "validUntil"
> & { articles: number };

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

/** Suppliers' catalogs with their revisions and articles. */
export interface CatalogStore {
  /** The published list's change counter, one read for all who ask while a read is under way. */
  readListVersion(): Promise<number>;
  /** Raises the published list's change counter on its own, after changes made without it (the demo data). */
  raiseListVersion(): Promise<void>;
  findReleased(): Promise<ReleasedCatalogs>;
  find(supplierCompanyId: string, key: CatalogKey): Promise<Catalog | null>;
  /** The catalog of a supplier (by supplier identifier) with its complete revisions, oldest first. */
  findWithCompleteRevisions(supplierId: string, catalogId: string): Promise<CatalogWithRevisions | null>;
  /** The row ids of the supplier's catalogs with a released revision, by catalog identifier, of those named. */
  findPublishedIds(supplierCompanyId: string, catalogIds: string[]): Promise<Map<string, string>>;
  /** A supplier's catalogs with their revisions, newest first. */
  listOfSupplier(supplierCompanyId: string): Promise<CatalogSummary[]>;
  findRevision(catalogKey: string, number: number): Promise<CatalogRevision | null>;
  /** Whether the catalog (row id) has this revision, complete and released. */
  isReleasedRevision(catalogKey: string, number: number): Promise<boolean>;
  /** Stores the catalog's next revision, incomplete; null when a concurrent import took it first. */
  startRevision(
    supplierCompanyId: string,
    existing: Pick<Catalog, "id"> | null,
    header: CatalogHeader,
  ): Promise<StartedRevision | null>;
  discardRevision(started: StartedRevision): Promise<void>;
  completeRevision(revisionId: string): Promise<void>;
  /** Releases the revision with its audit event; false when it was released already. */
  markReleased(
    revision: Pick<CatalogRevision, "id" | "catalogId" | "catalogDescription">,
    audit: AuditEvent,
  ): Promise<boolean>;
  /** Stores a catalog with its revisions and their articles, in one transaction (the demo data set). */
  saveWithRevisions(catalog: NewCatalog, revisions: NewRevision[]): Promise<void>;
  /** The next page of the revision's articles in the given customer groups (or all), after `after`. */
  readArticlePage(
    selection: { revisionId: string; groups: number[] | "all" },
    after?: ArticlePosition,
    limit?: number,
  ): Promise<ArticleRow[]>;
  /** Writes a batch of articles in one statement (PostgreSQL) or one transaction (SQLite). */
  insertArticles(articles: NewArticle[]): Promise<void>;
}

export const prismaCatalogStore = (db: Db): CatalogStore =>
  bindDb(db, {
    readListVersion: readCatalogListVersion,
    raiseListVersion: raiseCatalogListVersion,
    findReleased: findReleasedCatalogs,
    find: findCatalog,
    findWithCompleteRevisions: findCatalogWithCompleteRevisions,
    findPublishedIds: findPublishedCatalogIds,
    listOfSupplier: listSupplierCatalogs,
    findRevision,
    isReleasedRevision,
    startRevision,
    discardRevision,
    completeRevision,
    markReleased: markRevisionReleased,
    saveWithRevisions: storeCatalogWithRevisions,
    readArticlePage,
    insertArticles,
  });
