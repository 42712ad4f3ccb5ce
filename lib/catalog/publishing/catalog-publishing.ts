/**
 * Publishing a supplier's catalog: importing a master catalog file as a new, unreleased revision, and releasing it.
 *
 * An import never holds a long transaction (on SQLite that would stall every other writer): the revision is created
 * incomplete, its articles are written in batches, and it is marked complete at the end. Incomplete revisions are
 * invisible to the catalog services and cannot be released; a refused or failed import deletes its revision (and
 * the catalog, when the import created it), and an import cut off by a crash is cleared by the next import of that
 * catalog. Nothing half-imported is ever seen.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { ABANDONED_IMPORT_MS } from "@/lib/config/policy";
import { randomUUID } from "node:crypto";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { CatalogRefusal, readCatalogFile } from "@/lib/catalog/publishing/catalog-file";
import type {
  CatalogDescription,
  CatalogFileError,
  CatalogHeader,
  ImportedArticle,
} from "@/lib/catalog/publishing/catalog-format";
import { insertArticles } from "@/lib/db/statements/catalog-articles";
import type { Db } from "@/lib/db/prisma";
import { raiseChangeCounter } from "@/lib/db/statements/change-counters";

export class CatalogPublishingError extends OptiGateError<"not_found" | "already_released" | "incomplete"> {
  constructor(
    readonly code: "not_found" | "already_released" | "incomplete",
    message: string,
  ) {
    super(message);
  }
}

export type ImportResult =
  | { ok: true; supplierId: string; catalogId: string; resourceKey: string; revision: number; articles: number }
  | { ok: false; errors: CatalogFileError[] };

export interface ImportOptions {
  /** The supplier company the file must belong to (the upload page); the operator CLI may import for any supplier. */
  supplierCompanyId?: string;
  userId?: string;
}

interface Target {
  catalogId: string;
  createdCatalog: boolean;
  revisionId: string;
  number: number;
}

async function startImport(db: Db, header: CatalogHeader, options: ImportOptions): Promise<Target> {
  const supplier = await db.company.findFirst({ where: { supplierId: header.supplierId, kind: "supplier" } });
  if (!supplier) throw new CatalogRefusal(`there is no supplier with supplierID "${header.supplierId}"`);
  if (options.supplierCompanyId && supplier.id !== options.supplierCompanyId)
    throw new CatalogRefusal(
      `the file is for supplier "${header.supplierId}"; you can only publish your own company's catalogs`,
    );

  let catalog = await db.catalog.findUnique({
    where: { supplierCompanyId_catalogId: { supplierCompanyId: supplier.id, catalogId: header.catalogId } },
  });
  if (catalog && catalog.resourceKey !== header.resourceKey)
    throw new CatalogRefusal(
      `catalog "${header.catalogId}" has the resourceKey "${catalog.resourceKey}", not "${header.resourceKey}"`,
    );
  const keyHolder = catalog
    ? null
    : await db.catalog.findUnique({
        where: { supplierCompanyId_resourceKey: { supplierCompanyId: supplier.id, resourceKey: header.resourceKey } },
      });
  if (keyHolder)
    throw new CatalogRefusal(`the resourceKey "${header.resourceKey}" belongs to catalog "${keyHolder.catalogId}"`);

  const createdCatalog = !catalog;
  try {
    catalog ??= await db.catalog.create({
      data: {
        supplierCompanyId: supplier.id,
        catalogId: header.catalogId,
        resourceKey: header.resourceKey,
        ...catalogColumns(header.description),
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
        catalogId: catalog.id,
        number,
        comment: header.comment,
        publishedAt: new Date(),
        released: false,
        complete: false,
        validFrom: header.validFrom,
        validUntil: header.validUntil,
        catalogDescription: JSON.stringify(header.description),
      },
    });
    return { catalogId: catalog.id, createdCatalog, revisionId: revision.id, number };
  } catch (error) {
    if (createdCatalog && catalog) await db.catalog.delete({ where: { id: catalog.id } });
    if ((error as { code?: string }).code === "P2002")
      throw new CatalogRefusal(
        `another import of catalog "${header.catalogId}" is running; try again when it has finished`,
      );
    throw error;
  }
}

function writeArticles(db: Db, revisionId: string, batch: ImportedArticle[]): Promise<void> {
  return insertArticles(
    db,
    batch.map((article) => ({ ...article, id: randomUUID(), revisionId })),
  );
}

function catalogColumns(description: CatalogDescription) {
  return {
    name: description.name,
    language: description.language,
    format: description.format,
    formatVersion: description.formatVersion,
    validCountries: JSON.stringify(description.validCountries),
    productGroups: JSON.stringify(description.productGroups),
  };
}

async function discard(db: Db, target: Target): Promise<void> {
  await db.catalogRevision.delete({ where: { id: target.revisionId } });
  if (target.createdCatalog) await db.catalog.delete({ where: { id: target.catalogId } });
}

/** Imports a master catalog file (as text chunks) as the catalog's next revision, unreleased. */
export async function importCatalog(
  db: Db,
  chunks: AsyncIterable<string>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  let header: CatalogHeader | undefined;
  let target: Target | undefined;
  try {
    const { errors, articles } = await readCatalogFile(chunks, {
      header: async (read) => {
        header = read;
        target = await startImport(db, read, options);
      },
      articles: (batch) => writeArticles(db, target!.revisionId, batch),
    });
    if (errors.length > 0 || !header || !target) {
      if (target) await discard(db, target);
      return { ok: false, errors: errors.length > 0 ? errors : [{ line: 1, message: "the file contains no catalog" }] };
    }
    await db.catalogRevision.update({ where: { id: target.revisionId }, data: { complete: true } });
    await recordAuditEvent(db, {
      type: "catalog.imported",
      userId: options.userId,
      details: { supplierId: header.supplierId, catalogId: header.catalogId, revision: target.number, articles },
    });
    return {
      ok: true,
      supplierId: header.supplierId,
      catalogId: header.catalogId,
      resourceKey: header.resourceKey,
      revision: target.number,
      articles,
    };
  } catch (error) {
    if (target) await discard(db, target);
    throw error;
  }
}

/** Releases a complete revision: from now on it is listed and can be downloaded; the catalog takes its description. */
export async function releaseRevision(
  db: Db,
  where: { supplierCompanyId: string; catalogId: string; revision: number },
  userId?: string,
): Promise<void> {
  const catalog = await db.catalog.findUnique({
    where: { supplierCompanyId_catalogId: { supplierCompanyId: where.supplierCompanyId, catalogId: where.catalogId } },
  });
  const revision =
    catalog &&
    (await db.catalogRevision.findUnique({
      where: { catalogId_number: { catalogId: catalog.id, number: where.revision } },
    }));
  if (!catalog || !revision)
    throw new CatalogPublishingError("not_found", `catalog "${where.catalogId}" has no revision ${where.revision}`);
  if (revision.released)
    throw new CatalogPublishingError(
      "already_released",
      `revision ${where.revision} of catalog "${where.catalogId}" is already released`,
    );
  if (!revision.complete)
    throw new CatalogPublishingError(
      "incomplete",
      `revision ${where.revision} of catalog "${where.catalogId}" is still being imported`,
    );
  const description = revision.catalogDescription
    ? (JSON.parse(revision.catalogDescription) as CatalogDescription)
    : undefined;
  await db.$transaction(async (tx) => {
    // Only an unreleased revision is released, also when two releases race.
    const released = await tx.catalogRevision.updateMany({
      where: { id: revision.id, released: false },
      data: { released: true, publishedAt: new Date() },
    });
    if (released.count === 0)
      throw new CatalogPublishingError(
        "already_released",
        `revision ${where.revision} of catalog "${where.catalogId}" is already released`,
      );
    if (description) await tx.catalog.update({ where: { id: catalog.id }, data: catalogColumns(description) });
    await raiseChangeCounter(tx, "catalog_list");
    await recordAuditEvent(tx, {
      type: "catalog.released",
      userId,
      details: { supplierCompanyId: where.supplierCompanyId, catalogId: where.catalogId, revision: where.revision },
    });
  });
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
