/**
 * The catalog page's access to a supplier's catalogs: users of a supplier company list, import and release their own
 * company's catalogs, and nobody else's.
 */
import "server-only";
import { requireSupplier, type Actor, type SupplierUser } from "@/lib/rights/actor";
import {
  importCatalog,
  pullCatalogFile,
  releaseRevision,
  type ImportOptions,
  type ImportResult,
} from "@/lib/catalog/publishing/catalog-publishing";
import { type CatalogSummary } from "@/lib/store/catalog-store";
import { withPullSlot } from "@/lib/catalog/publishing/pull-slots";
import { PullRefused } from "@/lib/http/pulled-file";
import { OptiGateError } from "@/lib/errors/optigate-error";

export { CatalogPublishingError, type ImportResult } from "@/lib/catalog/publishing/catalog-publishing";
export { PullBusy } from "@/lib/catalog/publishing/pull-slots";
export type { CatalogSummary, RevisionSummary } from "@/lib/store/catalog-store";

export async function listOwnCatalogs(actor: Actor): Promise<CatalogSummary[]> {
  const user = requireSupplier(actor);
  return user.context.stores.catalogs.listOfSupplier(user.supplier.companyId);
}

/** An import for the user's own company only, recorded as theirs. */
const ownImport = (user: SupplierUser): ImportOptions => ({
  supplierCompanyId: user.supplier.companyId,
  userId: user.session.user.id,
});

/** Imports a master catalog file of the user's own company as the catalog's next, unreleased revision. */
export async function importOwnCatalog(actor: Actor, chunks: AsyncIterable<string>): Promise<ImportResult> {
  const user = requireSupplier(actor);
  return importCatalog(user.context.stores, chunks, ownImport(user));
}

/** A pull failed where the address was not public: why, and what the server there answered, stays inside. */
export class CatalogNotFetched extends OptiGateError<"not_fetched"> {
  readonly code = "not_fetched";
}

/** A refusal that involves an address that is not public, as the one that says nothing about it. */
function withholdInternal(error: unknown): never {
  if (error instanceof PullRefused && error.internal)
    throw new CatalogNotFetched("the file could not be fetched from that address", { cause: error });
  throw error;
}

/**
 * The same import of a file the user's company publishes at `location`, one pull per company at a time (PullBusy
 * otherwise); throws PullRefused when it cannot be had. Where the address is not public (refused, or an internal file
 * server in CATALOG_PULL_ALLOW), every failure is CatalogNotFetched, the file's errors too: a supplier's user must
 * not learn what answers inside the network.
 */
export async function pullOwnCatalog(actor: Actor, location: string): Promise<ImportResult> {
  const user = requireSupplier(actor);
  return withPullSlot(user.supplier.companyId, async () => {
    const pulled = await pullCatalogFile(location, user.context.config).catch(withholdInternal);
    const result = await importCatalog(user.context.stores, pulled.text, ownImport(user)).catch(withholdInternal);
    if (!result.ok && pulled.internal) throw new CatalogNotFetched("the file at that address is no catalog to import");
    return result;
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
