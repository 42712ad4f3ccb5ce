/** Suppliers' catalogs with their revisions and articles in memory (catalog-store.ts and the revision store). */
import { randomUUID } from "node:crypto";
import { ABANDONED_IMPORT_MS } from "@/lib/config/policy";
import type { AuditStore } from "@/lib/store/audit-store";
import type { ArticleRow } from "@/lib/store/catalog-article-store";
import type { CatalogStore } from "@/lib/store/catalog-store";
import { importedRevision } from "@/lib/store/catalog-revision-store";
import type { Catalog, CatalogDescription, CatalogRevision } from "@/lib/store/models/catalog";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

/** A revision's article as stored: its days as the database statement reads them (YYYY-MM-DD). */
export type StoredArticle = ArticleRow & { revisionId: string };

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

const byPosition = (a: ArticleRow, b: ArticleRow) =>
  a.articleNumber === b.articleNumber ? a.customerGroup - b.customerGroup : a.articleNumber < b.articleNumber ? -1 : 1;

function newCatalog(
  tables: MemoryTables,
  fields: { supplierCompanyId: string; catalogId: string; resourceKey: string },
  description: Omit<CatalogDescription, "format"> & { format?: string },
): Catalog {
  const taken = [...tables.catalogs.values()].some(
    (catalog) =>
      catalog.supplierCompanyId === fields.supplierCompanyId &&
      (catalog.catalogId === fields.catalogId || catalog.resourceKey === fields.resourceKey),
  );
  if (taken) throw Object.assign(new Error("a unique key is taken"), { code: "P2002" });
  const catalog: Catalog = {
    ...copy(fields),
    ...copy(description),
    format: description.format ?? "SPECTARIS",
    id: randomUUID(),
    createdAt: new Date(),
  };
  tables.catalogs.set(catalog.id, catalog);
  return catalog;
}

const revisionsOf = (tables: MemoryTables, catalogKey: string) =>
  [...tables.catalogRevisions.values()].filter((revision) => revision.catalogId === catalogKey);

function deleteRevision(tables: MemoryTables, revisionId: string): void {
  tables.catalogRevisions.delete(revisionId);
  tables.catalogArticles = tables.catalogArticles.filter((article) => article.revisionId !== revisionId);
}

/** The catalog's next revision, incomplete; null when the catalog's keys were taken first. */
function startRevision(
  tables: MemoryTables,
  ...[supplierCompanyId, existing, header]: Parameters<CatalogStore["startRevision"]>
) {
  let catalog = existing;
  try {
    catalog ??= newCatalog(
      tables,
      { supplierCompanyId, catalogId: header.catalogId, resourceKey: header.resourceKey },
      header.description,
    );
  } catch {
    return null;
  }
  const abandoned = Date.now() - ABANDONED_IMPORT_MS;
  for (const revision of revisionsOf(tables, catalog.id))
    if (!revision.complete && revision.publishedAt.getTime() < abandoned) deleteRevision(tables, revision.id);
  const number = Math.max(0, ...revisionsOf(tables, catalog.id).map((revision) => revision.number)) + 1;
  const revision: CatalogRevision = {
    ...importedRevision(catalog.id, number, header),
    id: randomUUID(),
    catalogDescription: copy(header.description),
  };
  tables.catalogRevisions.set(revision.id, revision);
  return { catalogId: catalog.id, createdCatalog: !existing, revisionId: revision.id, number };
}

/** The published catalogs with their suppliers and web services, and every released revision. */
function findReleased(tables: MemoryTables): ReturnType<CatalogStore["findReleased"]> {
  const released = [...tables.catalogRevisions.values()].filter((revision) => revision.released);
  const catalogs = [...tables.catalogs.values()].flatMap((catalog) => {
    const supplier = tables.companies.get(catalog.supplierCompanyId);
    if (!supplier?.active || !released.some((revision) => revision.catalogId === catalog.id)) return [];
    const webServices = tables.webServices.filter((service) => service.supplierCompanyId === supplier.id);
    return [{ ...copy(catalog), supplier: copy({ ...supplier, webServices }) }];
  });
  const revisions = released.map(({ catalogId, number, comment, publishedAt, validFrom, validUntil }) =>
    copy({ catalogId, number, comment, publishedAt, validFrom, validUntil }),
  );
  return Promise.resolve({ catalogs, revisions });
}

/** Revisions' articles, paged by position as the database's statement reads them. */
function articleStore(tables: MemoryTables): Pick<CatalogStore, "readArticlePage" | "insertArticles"> {
  return {
    async readArticlePage(selection, after, limit = 2000) {
      return tables.catalogArticles
        .filter(
          (article) =>
            article.revisionId === selection.revisionId &&
            (selection.groups === "all" || selection.groups.includes(article.customerGroup)) &&
            (!after || byPosition(article, { ...article, ...after }) > 0),
        )
        .sort(byPosition)
        .slice(0, limit)
        .map(({ revisionId: _revision, ...article }) => copy(article));
    },
    async insertArticles(articles) {
      for (const { id: _id, startDate, endDate, ...article } of articles)
        tables.catalogArticles.push({ ...article, startDate: day(startDate), endDate: day(endDate) });
    },
  };
}

/** A supplier's catalogs with their revisions, newest first, and how many articles each has. */
const supplierCatalogs = (tables: MemoryTables, supplierCompanyId: string) =>
  [...tables.catalogs.values()]
    .filter((catalog) => catalog.supplierCompanyId === supplierCompanyId)
    .sort((a, b) => (a.catalogId < b.catalogId ? -1 : 1))
    .map((catalog) => ({
      catalogId: catalog.catalogId,
      resourceKey: catalog.resourceKey,
      name: catalog.name,
      revisions: revisionsOf(tables, catalog.id)
        .sort((a, b) => b.number - a.number)
        .map(({ number, comment, publishedAt, released, complete, validFrom, validUntil, id }) => ({
          ...copy({ number, comment, publishedAt, released, complete, validFrom, validUntil }),
          articles: tables.catalogArticles.filter((article) => article.revisionId === id).length,
        })),
    }));

export function memoryCatalogStore(tables: MemoryTables, audit: AuditStore): CatalogStore {
  const catalogs = () => [...tables.catalogs.values()];
  const revision = (catalogKey: string, number: number) =>
    revisionsOf(tables, catalogKey).find((candidate) => candidate.number === number);
  return {
    ...articleStore(tables),
    readListVersion: async () => tables.catalogListVersion,
    async raiseListVersion() {
      tables.catalogListVersion++;
    },
    findReleased: () => findReleased(tables),
    async find(supplierCompanyId, key) {
      const found = catalogs().find(
        (catalog) =>
          catalog.supplierCompanyId === supplierCompanyId &&
          ("catalogId" in key ? catalog.catalogId === key.catalogId : catalog.resourceKey === key.resourceKey),
      );
      return copy(found ?? null);
    },
    async findWithCompleteRevisions(supplierId, catalogId) {
      const catalog = catalogs().find((candidate) => {
        const supplier = tables.companies.get(candidate.supplierCompanyId);
        return candidate.catalogId === catalogId && supplier?.supplierId === supplierId && supplier.kind === "supplier";
      });
      if (!catalog) return null;
      const revisions = revisionsOf(tables, catalog.id)
        .filter((candidate) => candidate.complete)
        .sort((a, b) => a.number - b.number)
        .map(({ number, comment, released, publishedAt }) => ({ number, comment, released, publishedAt }));
      return copy({ ...catalog, revisions });
    },
    async findPublishedIds(supplierCompanyId, catalogIds) {
      const published = catalogs().filter(
        (catalog) =>
          catalog.supplierCompanyId === supplierCompanyId &&
          catalogIds.includes(catalog.catalogId) &&
          revisionsOf(tables, catalog.id).some((candidate) => candidate.released),
      );
      return new Map(published.map((catalog) => [catalog.catalogId, catalog.id]));
    },
    listOfSupplier: async (supplierCompanyId) => supplierCatalogs(tables, supplierCompanyId),
    findRevision: async (catalogKey, number) => copy(revision(catalogKey, number) ?? null),
    isReleasedRevision: async (catalogKey, number) => {
      const found = revision(catalogKey, number);
      return Boolean(found?.released && found.complete);
    },
    startRevision: async (...args) => startRevision(tables, ...args),
    async discardRevision(started) {
      deleteRevision(tables, started.revisionId);
      if (started.createdCatalog) tables.catalogs.delete(started.catalogId);
    },
    async completeRevision(revisionId) {
      const found = tables.catalogRevisions.get(revisionId);
      if (found) found.complete = true;
    },
    async markReleased(released, event) {
      const found = tables.catalogRevisions.get(released.id);
      if (!found || found.released) return false;
      Object.assign(found, { released: true, publishedAt: new Date() });
      const catalog = tables.catalogs.get(found.catalogId);
      if (catalog && released.catalogDescription) Object.assign(catalog, copy(released.catalogDescription));
      tables.catalogListVersion++;
      await audit.record(event);
      return true;
    },
    async saveWithRevisions({ supplierCompanyId, catalogId, resourceKey, ...description }, revisions) {
      const catalog = newCatalog(tables, { supplierCompanyId, catalogId, resourceKey }, description);
      for (const { articles, ...fields } of revisions) {
        const id = randomUUID();
        tables.catalogRevisions.set(id, {
          ...copy(fields),
          id,
          catalogId: catalog.id,
          complete: true,
          catalogDescription: null,
        });
        for (const { startDate, endDate, whiteLabel, ...article } of articles)
          tables.catalogArticles.push({
            ...article,
            revisionId: id,
            startDate: day(startDate),
            endDate: day(endDate),
            whiteLabel: whiteLabel ?? false,
          });
      }
    },
  };
}
