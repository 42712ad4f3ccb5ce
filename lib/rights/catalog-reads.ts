/**
 * Catalogs as the platform API shows them to an actor: the published list with the actor's company's customer link
 * per supplier, one catalog with its revisions, and a revision's articles by the getSubCatalog rules (the actor's
 * company in place of the ticket's user). The supplier's own users also see revisions that are not released.
 */
import "server-only";
import { actingCompanyOf, requireCompany, type Actor } from "@/lib/rights/actor";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import {
  compareCatalogs,
  matchesFilter,
  publishedCatalogs,
  type CatalogFilter,
  type PublishedCatalog,
} from "@/lib/catalog/published-catalogs";
import { articleView, prepareSubCatalog, type ArticleView, type PreparedSubCatalog } from "@/lib/catalog/sub-catalog";
import { customerLinksOf, type CustomerLink } from "@/lib/catalog/registrations/customer-links";
import { type ArticlePosition } from "@/lib/store/catalog-article-store";

export type { ArticlePosition, ArticleView, CatalogFilter, PublishedCatalog };

export interface CatalogPosition {
  supplierId: string;
  catalogId: string;
}

export interface CatalogListEntry {
  catalog: PublishedCatalog;
  /** the actor's company's active registration at the supplier */
  link?: CustomerLink;
}

async function linksOf(actor: Actor): Promise<Map<string, CustomerLink>> {
  if (actor.kind === "token" && actor.customerLinks) return actor.customerLinks;
  const company = actingCompanyOf(actor);
  return company?.kind === "eye_care_professional" ? customerLinksOf(actor.context.stores, company.id) : new Map();
}

const positionOf = (catalog: PublishedCatalog): CatalogPosition => ({
  supplierId: catalog.supplier.supplierId,
  catalogId: catalog.catalogId,
});

/** Up to `limit` published catalogs after `after`, and whether more follow. */
export async function listCatalogs(
  actor: Actor,
  filter: CatalogFilter,
  after: CatalogPosition | undefined,
  limit: number,
): Promise<{ entries: CatalogListEntry[]; more: boolean }> {
  const [list, links] = await Promise.all([publishedCatalogs(actor.context.stores), linksOf(actor)]);
  const entries: CatalogListEntry[] = [];
  let more = false;
  for (const catalog of list.catalogs) {
    if ((after && compareCatalogs(positionOf(catalog), after) <= 0) || !matchesFilter(catalog, filter)) continue;
    if (entries.length === limit) {
      more = true;
      break;
    }
    entries.push({ catalog, link: links.get(catalog.supplier.companyId) });
  }
  return { entries, more };
}

interface RevisionEntry {
  number: number;
  comment: string;
  released: boolean;
  releasedAt: Date | null;
}

export interface CatalogDetail extends CatalogListEntry {
  revisions: RevisionEntry[];
}

/** One catalog with its released revisions (every complete one for the supplier's own users); 404 when hidden. */
export async function catalogDetail(actor: Actor, position: CatalogPosition): Promise<CatalogDetail> {
  const { stores } = actor.context;
  const catalog = await stores.catalogs.findWithCompleteRevisions(position.supplierId, position.catalogId);
  const own = catalog !== null && actingCompanyOf(actor)?.id === catalog.supplierCompanyId;
  const published = (await publishedCatalogs(stores)).catalogs.find((entry) => entry.key === catalog?.id);
  if (!catalog || !published) {
    // An unpublished catalog exists only for its supplier, and has no list entry to show.
    throw new CatalogServiceError(
      404,
      `The supplier "${position.supplierId}" has no published catalog "${position.catalogId}".`,
    );
  }
  const revisions = catalog.revisions
    .filter((revision) => own || revision.released)
    .map((revision) => ({
      number: revision.number,
      comment: revision.comment,
      released: revision.released,
      releasedAt: revision.released ? revision.publishedAt : null,
    }));
  return { catalog: published, link: (await linksOf(actor)).get(catalog.supplierCompanyId), revisions };
}

/** A revision's articles for the actor, checked before anything is read (CatalogServiceError otherwise). */
export async function prepareArticles(
  actor: Actor,
  position: CatalogPosition,
  revision: number,
): Promise<PreparedSubCatalog> {
  const { stores } = actor.context;
  const supplier = await stores.companies.findSupplier(position.supplierId);
  if (!supplier) throw new CatalogServiceError(404, `There is no supplier "${position.supplierId}".`);
  const company = actingCompanyOf(actor);
  if (company?.id !== supplier.id) {
    // For everyone but the supplier, unpublished catalogs and unreleased revisions do not exist, as in the detail.
    const published = (await publishedCatalogs(stores)).catalogs.find(
      (entry) =>
        entry.supplier.companyId === supplier.id &&
        (entry.catalogId === position.catalogId || entry.resourceKey === position.catalogId),
    );
    if (!published)
      throw new CatalogServiceError(
        404,
        `The supplier "${position.supplierId}" has no published catalog "${position.catalogId}".`,
      );
    if (!(await stores.catalogs.isReleasedRevision(published.key, revision)))
      throw new CatalogServiceError(404, `The catalog has no released revision ${revision}.`);
  }
  const reader = company ? ({ kind: "company", companyId: company.id } as const) : ({ kind: "public" } as const);
  return prepareSubCatalog(
    stores,
    { supplierCompanyId: supplier.id, catalogKey: position.catalogId, revision },
    reader,
  );
}

/** Up to `limit` articles of a prepared revision after `after`, and whether more follow. */
export async function articlePage(
  actor: Actor,
  prepared: PreparedSubCatalog,
  after: ArticlePosition | undefined,
  limit: number,
): Promise<{ articles: ArticleView[]; more: boolean }> {
  // One more than the page: whether another page follows, without a count.
  const rows = await actor.context.stores.catalogs.readArticlePage(prepared, after, limit + 1);
  return { articles: rows.slice(0, limit).map((row) => articleView(row, prepared)), more: rows.length > limit };
}

export interface SupplierListing {
  supplierId: string;
  name: string;
  catalogs: { catalogId: string; name: string }[];
}

const MAX_SUPPLIER_RESULTS = 20;

/**
 * Suppliers that publish catalogs, with those catalogs, for a signed-in company: all of them, or those whose name or
 * identifier contains `search` (case-insensitive), at most MAX_SUPPLIER_RESULTS.
 */
export async function supplierDirectory(actor: Actor, search?: string): Promise<SupplierListing[]> {
  requireCompany(actor);
  const needle = search?.trim().toLocaleLowerCase();
  const suppliers = new Map<string, SupplierListing>();
  for (const catalog of (await publishedCatalogs(actor.context.stores)).catalogs) {
    const { supplierId, name } = catalog.supplier;
    if (needle && !`${name} ${supplierId}`.toLocaleLowerCase().includes(needle)) continue;
    let listing = suppliers.get(supplierId);
    if (!listing) {
      if (suppliers.size === MAX_SUPPLIER_RESULTS) break;
      suppliers.set(supplierId, (listing = { supplierId, name, catalogs: [] }));
    }
    listing.catalogs.push({ catalogId: catalog.catalogId, name: catalog.name });
  }
  return [...suppliers.values()];
}
