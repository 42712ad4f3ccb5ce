/**
 * The supplier, catalog and revision a download names, remembered in this process once the revision is released: a
 * released revision never changes, and whatever else may (the supplier, the catalog's description) raises the
 * published list's change counter, which clears what is remembered. A revalidation of a released catalog then reads
 * one change counter and no row. Unreleased revisions (the supplier's own downloads) are read every time.
 */
import type { Catalog, CatalogRevision } from "@/lib/store/models/catalog";
import type { Company } from "@/lib/store/models/user";
import { processCache } from "@/lib/observability/process-cache";
import type { Stores } from "@/lib/store/stores";

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
  () => new WeakMap<Stores, { version: number; seenSince: Date; lookups: Map<string, CatalogRevisionLookup> }>(),
);

async function readLookup(stores: Stores, selection: RevisionSelection): Promise<CatalogRevisionLookup> {
  const supplier = await stores.companies.find(selection.supplierCompanyId);
  if (!supplier || supplier.kind !== "supplier" || !supplier.active) return { supplier, catalog: null, revision: null };
  const catalog =
    (await stores.catalogs.find(supplier.id, { resourceKey: selection.catalogKey })) ??
    (await stores.catalogs.find(supplier.id, { catalogId: selection.catalogKey }));
  const revision = catalog ? await stores.catalogs.findRevision(catalog.id, selection.revision) : null;
  return { supplier, catalog, revision };
}

/**
 * The lookup, and since when this process has seen the published list as it is now: never before the last change of
 * a supplier or of a catalog's description, which leave no date of their own (part of a sub-catalog's Last-Modified).
 */
export async function lookUpCatalogRevision(
  stores: Stores,
  selection: RevisionSelection,
): Promise<CatalogRevisionLookup & { listSeenSince: Date }> {
  const version = await stores.catalogs.readListVersion();
  let cache = remembered.get(stores);
  if (cache?.version !== version)
    remembered.set(stores, (cache = { version, seenSince: new Date(), lookups: new Map() }));
  const key = JSON.stringify([selection.supplierCompanyId, selection.catalogKey, selection.revision]);
  let lookup = cache.lookups.get(key);
  if (!lookup) {
    lookup = await readLookup(stores, selection);
    if (lookup.revision?.released && lookup.revision.complete) {
      if (cache.lookups.size >= MAX_REMEMBERED) cache.lookups.delete(cache.lookups.keys().next().value!);
      cache.lookups.set(key, lookup);
    }
  }
  return { ...lookup, listSeenSince: cache.seenSince };
}
