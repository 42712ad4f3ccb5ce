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
import { randomUUID } from "node:crypto";
import { CatalogRefusal, readCatalogFile } from "@/lib/catalog/publishing/catalog-file";
import type { CatalogFileError } from "@/lib/catalog/publishing/catalog-format";
import type { Catalog, CatalogHeader, ImportedArticle } from "@/lib/store/models/catalog";
import type { Stores } from "@/lib/store/stores";
import { type StartedRevision } from "@/lib/store/catalog-revision-store";
import { englishProblemText } from "@/lib/catalog/publishing/catalog-problems";
import { CATALOG_PULL_TIMEOUT_MS, MAX_UPLOAD_BYTES } from "@/lib/config/policy";
import { pullFile, type PulledFile } from "@/lib/http/pulled-file";
import type { Config } from "@/lib/config";
import type { ProgressListener } from "@/lib/observability/progress";

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
  /** `unreported`: how many errors were found beyond those listed (present when there are any) */
  | { ok: false; errors: CatalogFileError[]; unreported?: number };

export interface ImportOptions {
  /** The supplier company the file must belong to (the upload page); the operator CLI may import for any supplier. */
  supplierCompanyId?: string;
  userId?: string;
  /** Told the articles read so far, as the file is read (also when it turns out to have errors). */
  onProgress?: ProgressListener;
}

/** Where a file goes: its supplier's company and the catalog, when there is one already. */
interface ImportTarget {
  supplierCompanyId: string;
  catalog: Catalog | null;
}

/** Refuses a file that cannot be imported, whatever else is wrong in it (reads only). */
async function checkImport(stores: Stores, header: CatalogHeader, options: ImportOptions): Promise<ImportTarget> {
  const supplier = await stores.companies.findSupplier(header.supplierId);
  if (!supplier) throw new CatalogRefusal({ key: "unknownSupplier", values: { supplierId: header.supplierId } });
  if (options.supplierCompanyId && supplier.id !== options.supplierCompanyId)
    throw new CatalogRefusal({ key: "otherSupplier", values: { supplierId: header.supplierId } });

  const catalog = await stores.catalogs.find(supplier.id, { catalogId: header.catalogId });
  if (catalog && catalog.resourceKey !== header.resourceKey)
    throw new CatalogRefusal({
      key: "otherResourceKey",
      values: { catalogId: header.catalogId, resourceKey: catalog.resourceKey, given: header.resourceKey },
    });
  const keyHolder = catalog ? null : await stores.catalogs.find(supplier.id, { resourceKey: header.resourceKey });
  if (keyHolder)
    throw new CatalogRefusal({
      key: "resourceKeyTaken",
      values: { resourceKey: header.resourceKey, catalogId: keyHolder.catalogId },
    });
  return { supplierCompanyId: supplier.id, catalog };
}

async function startImport(stores: Stores, header: CatalogHeader, checked: ImportTarget): Promise<StartedRevision> {
  const started = await stores.catalogs.startRevision(checked.supplierCompanyId, checked.catalog, header);
  if (!started) throw new CatalogRefusal({ key: "importRunning", values: { catalogId: header.catalogId } });
  return started;
}

function writeArticles(stores: Stores, revisionId: string, batch: ImportedArticle[]): Promise<void> {
  return stores.catalogs.insertArticles(batch.map((article) => ({ ...article, id: randomUUID(), revisionId })));
}

const noCatalog: CatalogFileError = {
  line: 1,
  message: englishProblemText({ key: "noCatalog" }),
  problem: { key: "noCatalog" },
};

/** Imports a master catalog file (as text chunks) as the catalog's next revision, unreleased. */
export async function importCatalog(
  stores: Stores,
  chunks: AsyncIterable<string>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  let header: CatalogHeader | undefined;
  let checked: ImportTarget | undefined;
  let target: StartedRevision | undefined;
  try {
    const { errors, unreported, articles } = await readCatalogFile(chunks, {
      check: async (read) => {
        checked = await checkImport(stores, read, options);
      },
      header: async (read) => {
        header = read;
        target = await startImport(stores, read, checked!);
      },
      articles: (batch) => writeArticles(stores, target!.revisionId, batch),
      progress: options.onProgress,
    });
    if (errors.length > 0 || !header || !target) {
      if (target) await stores.catalogs.discardRevision(target);
      if (errors.length === 0) return { ok: false, errors: [noCatalog] };
      return { ok: false, errors, ...(unreported > 0 ? { unreported } : {}) };
    }
    await stores.catalogs.completeRevision(target.revisionId);
    await stores.audit.record({
      type: "catalog.imported",
      userId: options.userId,
      companyId: checked?.supplierCompanyId,
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
    if (target) await stores.catalogs.discardRevision(target);
    throw error;
  }
}

/**
 * The master catalog file at a URL the supplier gives (files larger than the hosting platform lets an upload be), its
 * text for importCatalog, within the upload's size; throws PullRefused when it cannot be had, now or while read. Only
 * public addresses and CATALOG_PULL_ALLOW's ranges are reached: OUTBOUND_ALLOW opens the operator's own connections,
 * not those to addresses outside parties name.
 */
export function pullCatalogFile(
  location: string,
  { production, catalogPullAllow }: Pick<Config, "production" | "catalogPullAllow">,
): Promise<PulledFile> {
  const limits = { maxBytes: MAX_UPLOAD_BYTES, timeoutMs: CATALOG_PULL_TIMEOUT_MS };
  return pullFile(location, { production, allowed: catalogPullAllow }, limits);
}

/** Releases a complete revision: from now on it is listed and can be downloaded; the catalog takes its description. */
export async function releaseRevision(
  stores: Stores,
  where: { supplierCompanyId: string; catalogId: string; revision: number },
  userId?: string,
): Promise<void> {
  const catalog = await stores.catalogs.find(where.supplierCompanyId, { catalogId: where.catalogId });
  const revision = catalog && (await stores.catalogs.findRevision(catalog.id, where.revision));
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
  const released = await stores.catalogs.markReleased(revision, {
    type: "catalog.released",
    userId,
    companyId: where.supplierCompanyId,
    details: { supplierCompanyId: where.supplierCompanyId, catalogId: where.catalogId, revision: where.revision },
  });
  if (!released)
    throw new CatalogPublishingError(
      "already_released",
      `revision ${where.revision} of catalog "${where.catalogId}" is already released`,
    );
}
