/**
 * The catalog page's access to a supplier's catalogs: users of a supplier company list, import and release their own
 * company's catalogs, and nobody else's.
 */
import "server-only";
import { requireSupplier, type Actor } from "@/lib/rights/actor";
import { importCatalog, releaseRevision, type ImportResult } from "@/lib/catalog/publishing/catalog-publishing";
import { type CatalogSummary } from "@/lib/store/catalog-store";

export { CatalogPublishingError, type ImportResult } from "@/lib/catalog/publishing/catalog-publishing";
export type { CatalogSummary, RevisionSummary } from "@/lib/store/catalog-store";

export async function listOwnCatalogs(actor: Actor): Promise<CatalogSummary[]> {
  const user = requireSupplier(actor);
  return user.context.stores.catalogs.listOfSupplier(user.supplier.companyId);
}

/** Imports a master catalog file of the user's own company as the catalog's next, unreleased revision. */
export async function importOwnCatalog(actor: Actor, chunks: AsyncIterable<string>): Promise<ImportResult> {
  const user = requireSupplier(actor);
  return importCatalog(user.context.stores, chunks, {
    supplierCompanyId: user.supplier.companyId,
    userId: user.session.user.id,
  });
}

export async function releaseOwnRevision(actor: Actor, catalogId: string, revision: number): Promise<void> {
  const user = requireSupplier(actor);
  await releaseRevision(
    user.context.stores,
    { supplierCompanyId: user.supplier.companyId, catalogId, revision },
    user.session.user.id,
  );
}
