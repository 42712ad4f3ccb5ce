/**
 * The supplier, catalog and revision a download names, remembered in this process once the revision is released: a
 * released revision never changes, and whatever else may (the supplier, the catalog's description) raises the
 * published list's change counter, which clears what is remembered. A revalidation of a released catalog then reads
 * one change counter and no row. Unreleased revisions (the supplier's own downloads) are read every time.
 */
import type { Catalog, CatalogRevision } from "@/lib/db/rows";
import type { Company } from "@/lib/store/models/user";
import { processCache } from "@/lib/observability/process-cache";
import type { Db } from "@/lib/db/prisma";
import { findRevision } from "@/lib/store/catalog-revision-store";
import { findCatalog, readCatalogListVersion } from "@/lib/store/catalog-store";
import { findCompany } from "@/lib/store/company-store";

export interface CatalogRevisionLookup {
  supplier: Company | null;
  catalog: Catalog | null;
  revision: CatalogRevision | null;
}

export interface RevisionSelection {
  supplierCompanyId: string;
  /** the catalog identifier (catalog.xml) or its resource key */
  catalogKey: string;
  revision: number;
}

const MAX_REMEMBERED = 10_000;
const remembered = processCache(
  "releasedCatalogRevisions",
  () => new WeakMap<Db, { version: number; seenSince: Date; lookups: Map<string, CatalogRevisionLookup> }>(),
);

async function readLookup(db: Db, selection: RevisionSelection): Promise<CatalogRevisionLookup> {
  const supplier = await findCompany(db, selection.supplierCompanyId);
  if (!supplier || supplier.kind !== "supplier" || !supplier.active) return { supplier, catalog: null, revision: null };
  const catalog =
    (await findCatalog(db, supplier.id, { resourceKey: selection.catalogKey })) ??
    (await findCatalog(db, supplier.id, { catalogId: selection.catalogKey }));
  const revision = catalog ? await findRevision(db, catalog.id, selection.revision) : null;
  return { supplier, catalog, revision };
}

/**
 * The lookup, and since when this process has seen the published list as it is now: never before the last change of
 * a supplier or of a catalog's description, which leave no date of their own (part of a sub-catalog's Last-Modified).
 */
export async function lookUpCatalogRevision(
  db: Db,
  selection: RevisionSelection,
): Promise<CatalogRevisionLookup & { listSeenSince: Date }> {
  const version = await readCatalogListVersion(db);
  let cache = remembered.get(db);
  if (cache?.version !== version) remembered.set(db, (cache = { version, seenSince: new Date(), lookups: new Map() }));
  const key = JSON.stringify([selection.supplierCompanyId, selection.catalogKey, selection.revision]);
  let lookup = cache.lookups.get(key);
  if (!lookup) {
    lookup = await readLookup(db, selection);
    if (lookup.revision?.released && lookup.revision.complete) {
      if (cache.lookups.size >= MAX_REMEMBERED) cache.lookups.delete(cache.lookups.keys().next().value!);
      cache.lookups.set(key, lookup);
    }
  }
  return { ...lookup, listSeenSince: cache.seenSince };
}
