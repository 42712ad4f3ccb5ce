/**
 * Catalog revisions (`catalog_revisions`): imported as incomplete revisions, then completed and released, or discarded.
 * A catalog takes its description (stored as JSON columns, written here from a CatalogDescription) from the file that
 * created it and again from each revision it releases; releasing raises the published list's change counter in the
 * same transaction.
 */
import { ABANDONED_IMPORT_MS } from "@/lib/config/policy";
import type { Catalog, CatalogDescription, CatalogHeader, CatalogRevision } from "@/lib/store/models/catalog";
import type { Db } from "@/lib/db/prisma";
import { raiseChangeCounter } from "@/lib/db/statements/change-counters";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { storeRevisionWithArticles, type NewRevision } from "@/lib/store/catalog-article-store";

export async function findRevision(db: Db, catalogKey: string, number: number): Promise<CatalogRevision | null> {
  const row = await db.catalogRevision.findUnique({ where: { catalogId_number: { catalogId: catalogKey, number } } });
  return (
    row && {
      ...row,
      catalogDescription: row.catalogDescription ? (JSON.parse(row.catalogDescription) as CatalogDescription) : null,
    }
  );
}

/** Whether the catalog (row id) has this revision, complete and released. */
export async function isReleasedRevision(db: Db, catalogKey: string, number: number): Promise<boolean> {
  return (
    (await db.catalogRevision.count({ where: { catalogId: catalogKey, number, released: true, complete: true } })) > 0
  );
}

const descriptionColumns = (description: Omit<CatalogDescription, "format"> & { format?: string }) => ({
  name: description.name,
  language: description.language,
  format: description.format,
  formatVersion: description.formatVersion,
  validCountries: JSON.stringify(description.validCountries),
  productGroups: JSON.stringify(description.productGroups),
});

/** A revision as an import starts it: incomplete and unreleased, dated now, valid as the file says. */
export const importedRevision = (catalogId: string, number: number, header: CatalogHeader) => ({
  catalogId,
  number,
  comment: header.comment,
  publishedAt: new Date(),
  released: false,
  complete: false,
  validFrom: header.validFrom,
  validUntil: header.validUntil,
});

/** A revision being imported: its catalog, whether the import created that catalog, and the revision. */
export interface StartedRevision {
  catalogId: string;
  createdCatalog: boolean;
  revisionId: string;
  number: number;
}

/**
 * Stores the catalog's next revision, incomplete, creating the catalog (null: it has none yet) from the header first.
 * Clears the catalog's imports abandoned for ABANDONED_IMPORT_MS. Null, with nothing left written, when a concurrent
 * import took the catalog or the revision number first (a unique key).
 */
export async function startRevision(
  db: Db,
  supplierCompanyId: string,
  existing: Pick<Catalog, "id"> | null,
  header: CatalogHeader,
): Promise<StartedRevision | null> {
  let catalog = existing;
  try {
    catalog ??= await db.catalog.create({
      data: {
        supplierCompanyId,
        catalogId: header.catalogId,
        resourceKey: header.resourceKey,
        ...descriptionColumns(header.description),
      },
    });
    await db.catalogRevision.deleteMany({
      where: {
        catalogId: catalog.id,
        complete: false,
        publishedAt: { lt: new Date(Date.now() - ABANDONED_IMPORT_MS) },
      },
    });
    const latest = await db.catalogRevision.findFirst({
      where: { catalogId: catalog.id },
      orderBy: { number: "desc" },
      select: { number: true },
    });
    const number = (latest?.number ?? 0) + 1;
    const revision = await db.catalogRevision.create({
      data: {
        ...importedRevision(catalog.id, number, header),
        catalogDescription: JSON.stringify(header.description),
      },
    });
    return { catalogId: catalog.id, createdCatalog: !existing, revisionId: revision.id, number };
  } catch (error) {
    if (!existing && catalog) await db.catalog.delete({ where: { id: catalog.id } });
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Deletes a revision that was not completed, and its catalog when the import created it. */
export async function discardRevision(db: Db, started: StartedRevision): Promise<void> {
  await db.catalogRevision.delete({ where: { id: started.revisionId } });
  if (started.createdCatalog) await db.catalog.delete({ where: { id: started.catalogId } });
}

export async function completeRevision(db: Db, revisionId: string): Promise<void> {
  await db.catalogRevision.update({ where: { id: revisionId }, data: { complete: true } });
}

/**
 * Releases the revision with its audit event, in one transaction that raises the published list's counter; the
 * catalog takes the revision's description. False, with nothing written, when the revision was released already
 * (only an unreleased revision is released, also when two releases race).
 */
export async function markRevisionReleased(
  db: Db,
  revision: Pick<CatalogRevision, "id" | "catalogId" | "catalogDescription">,
  audit: AuditEvent,
): Promise<boolean> {
  const description = revision.catalogDescription;
  return db.$transaction(async (tx) => {
    const released = await tx.catalogRevision.updateMany({
      where: { id: revision.id, released: false },
      data: { released: true, publishedAt: new Date() },
    });
    if (released.count === 0) return false;
    if (description)
      await tx.catalog.update({ where: { id: revision.catalogId }, data: descriptionColumns(description) });
    await raiseChangeCounter(tx, "catalog_list");
    await recordAuditEvent(tx, audit);
    return true;
  });
}

/** A catalog as the demo data set describes it (the format is SPECTARIS unless given). */
export interface NewCatalog extends Omit<CatalogDescription, "format"> {
  format?: string;
  supplierCompanyId: string;
  catalogId: string;
  resourceKey: string;
}

/** Stores a catalog with its revisions and their articles, in one transaction (the demo data set). */
export async function storeCatalogWithRevisions(db: Db, catalog: NewCatalog, revisions: NewRevision[]): Promise<void> {
  const { supplierCompanyId, catalogId, resourceKey, ...description } = catalog;
  await db.$transaction(async (tx) => {
    const row = await tx.catalog.create({
      data: { supplierCompanyId, catalogId, resourceKey, ...descriptionColumns(description) },
    });
    for (const revision of revisions) await storeRevisionWithArticles(tx, row.id, revision);
  });
}
