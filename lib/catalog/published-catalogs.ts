/**
 * The published catalogs: every catalog with a released revision, with its latest released revision and its
 * supplier, in one stable order (supplier identifier, then catalog identifier). Both catalog lists are made from it,
 * getCatalogInfos.ashx and GET /v2/catalogs, with the same filters. The list changes only when a revision is released
 * or a supplier changes; it is built once per change (the change counter "catalog_list", raised by those changes on
 * any instance) and kept per database.
 */
import { processCache } from "@/lib/observability/process-cache";
import type { CatalogDescription } from "@/lib/store/models/catalog";
import type { Stores } from "@/lib/store/stores";

interface SupplierWebServiceEntry {
  type: string;
  name: string;
  url: string;
  priority: number;
}

interface PublishedSupplier {
  companyId: string;
  supplierId: string;
  name: string;
  name1: string;
  name2: string;
  portalUrl: string;
  webServices: SupplierWebServiceEntry[];
}

interface PublishedRevision {
  number: number;
  comment: string;
  publishedAt: Date;
  validFrom: Date;
  validUntil: Date | null;
}

export interface PublishedCatalog extends CatalogDescription {
  /** the catalog's row id */
  key: string;
  supplier: PublishedSupplier;
  catalogId: string;
  resourceKey: string;
  latest: PublishedRevision;
}

export interface PublishedCatalogList {
  /** the change counter the list was built at */
  version: number;
  /** when this process began building it: never before the change it shows (its Last-Modified) */
  builtAt: Date;
  catalogs: PublishedCatalog[];
}

export interface CatalogFilter {
  /** ISO country code, upper case */
  validCountry?: string;
  /** the catalog must list every one */
  productGroups: string[];
  /** the supplier identifier */
  supplierId?: string;
}

export const matchesFilter = (catalog: PublishedCatalog, filter: CatalogFilter): boolean =>
  (!filter.validCountry || catalog.validCountries.includes(filter.validCountry)) &&
  filter.productGroups.every((group) => catalog.productGroups.includes(group)) &&
  (!filter.supplierId || catalog.supplier.supplierId === filter.supplierId);

/** The order of both lists, and of the API's cursor. */
export const compareCatalogs = (
  a: { supplierId: string; catalogId: string },
  b: { supplierId: string; catalogId: string },
): number =>
  a.supplierId < b.supplierId
    ? -1
    : a.supplierId > b.supplierId
      ? 1
      : a.catalogId < b.catalogId
        ? -1
        : a.catalogId > b.catalogId
          ? 1
          : 0;

async function buildList(stores: Stores, version: number): Promise<PublishedCatalogList> {
  const builtAt = new Date();
  const { catalogs, revisions: released } = await stores.catalogs.findReleased();
  // The latest released revision of each catalog.
  const latest = new Map<string, PublishedRevision>();
  for (const { catalogId, ...revision } of released) {
    if ((latest.get(catalogId)?.number ?? -1) < revision.number) latest.set(catalogId, revision);
  }
  const suppliers = new Map<string, PublishedSupplier>();
  const supplierOf = (company: (typeof catalogs)[number]["supplier"]): PublishedSupplier => {
    let supplier = suppliers.get(company.id);
    if (!supplier) {
      const webServices = company.webServices
        .map(({ type, name, url, priority }) => ({ type, name, url, priority }))
        .sort((a, b) => a.priority - b.priority || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
      supplier = {
        companyId: company.id,
        supplierId: company.supplierId ?? "",
        name: company.name,
        name1: company.name1 ?? company.name,
        name2: company.name2 ?? "",
        portalUrl: company.portalUrl ?? "",
        webServices,
      };
      suppliers.set(company.id, supplier);
    }
    return supplier;
  };
  const list = catalogs
    .filter((catalog) => catalog.supplier.kind === "supplier" && latest.has(catalog.id))
    .map((catalog) => ({
      key: catalog.id,
      supplier: supplierOf(catalog.supplier),
      catalogId: catalog.catalogId,
      resourceKey: catalog.resourceKey,
      name: catalog.name,
      language: catalog.language,
      format: catalog.format,
      formatVersion: catalog.formatVersion,
      validCountries: catalog.validCountries,
      productGroups: catalog.productGroups,
      latest: latest.get(catalog.id)!,
    }))
    .sort((a, b) =>
      compareCatalogs(
        { supplierId: a.supplier.supplierId, catalogId: a.catalogId },
        { supplierId: b.supplier.supplierId, catalogId: b.catalogId },
      ),
    );
  return { version, builtAt, catalogs: list };
}

const lists = processCache(
  "publishedCatalogs",
  () => new WeakMap<Stores, { version: number; list: Promise<PublishedCatalogList> }>(),
);
/** The list as of the database's current change counter: built when the counter moved since the last build. */
export async function publishedCatalogs(stores: Stores): Promise<PublishedCatalogList> {
  const version = await stores.catalogs.readListVersion();
  const cached = lists.get(stores);
  if (cached?.version === version) return cached.list;
  const entry = { version, list: buildList(stores, version) };
  lists.set(stores, entry);
  entry.list.catch(() => lists.get(stores) === entry && lists.delete(stores));
  return entry.list;
}
