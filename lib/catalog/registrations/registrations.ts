/**
 * Supplier registrations as their parties see and change them: an optician requests one, either side changes it by
 * the rules of registration-rules.ts, and a change made on a version that is no longer current is refused as stale.
 * The registration store (lib/store/registration-store.ts) writes each of them in one transaction.
 */
import type { Stores } from "@/lib/store/stores";
import {
  checkChange,
  checkClientId,
  checkCustomerGroups,
  isOpen,
  MAX_SUBSCRIPTIONS,
  RegistrationError,
  type RegistrationChange,
  type RegistrationSide,
  type RegistrationStatus,
  type SubscriptionStatus,
} from "@/lib/catalog/registrations/registration-rules";
import type { RegistrationRecord } from "@/lib/store/models/registration";
import type { RegistrationPosition, RegistrationScope, RequestLookups } from "@/lib/store/registration-store";

/** Who acts: a company (optician, supplier or operator), by a user or by a client acting for no user. */
export interface RegistrationParty {
  company: { id: string; kind: string };
  userId?: string;
  clientId?: string;
}

export interface RegistrationView {
  id: string;
  opticianCompanyId: string;
  opticianName: string;
  supplierId: string;
  supplierName: string;
  clientId: string;
  status: RegistrationStatus;
  customerGroups: number[];
  subscriptions: { catalogId: string; status: SubscriptionStatus }[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

function viewOf(row: RegistrationRecord): RegistrationView {
  return {
    id: row.id,
    opticianCompanyId: row.opticianCompanyId,
    opticianName: row.optician.name,
    supplierId: row.supplier.supplierId ?? "",
    supplierName: row.supplier.name,
    clientId: row.clientId,
    status: row.status as RegistrationStatus,
    customerGroups: row.customerGroups,
    subscriptions: row.subscriptions
      .map((s) => ({ catalogId: s.catalog.catalogId, status: s.status as SubscriptionStatus }))
      .sort((a, b) => (a.catalogId < b.catalogId ? -1 : 1)),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

/** The registrations a party may see: an optician's own, those at a supplier, and every one for the operator. */
function visibleTo(party: RegistrationParty): RegistrationScope {
  if (party.company.kind === "operator") return {};
  if (party.company.kind === "supplier") return { supplierCompanyId: party.company.id };
  return { opticianCompanyId: party.company.id };
}

const sideOf = (
  party: RegistrationParty,
  row: { opticianCompanyId: string; supplierCompanyId: string },
): RegistrationSide =>
  party.company.kind === "eye_care_professional" && row.opticianCompanyId === party.company.id
    ? "optician"
    : party.company.kind === "supplier" && row.supplierCompanyId === party.company.id
      ? "supplier"
      : "other";

/** Newest first; `after` continues a list after that registration. */
export async function listRegistrations(
  stores: Stores,
  party: RegistrationParty,
  options: { status?: RegistrationStatus; after?: RegistrationPosition; limit: number },
): Promise<RegistrationView[]> {
  return (await stores.registrations.list(visibleTo(party), options)).map(viewOf);
}

const notFound = (id: string) => new RegistrationError("not_found", `There is no registration "${id}".`);
const stale = () => new RegistrationError("stale", "The registration was changed since you read it; read it again.");

export async function getRegistration(stores: Stores, party: RegistrationParty, id: string): Promise<RegistrationView> {
  const row = await stores.registrations.find(visibleTo(party), id);
  if (!row) throw notFound(id);
  return viewOf(row);
}

const actorOf = (party: RegistrationParty) => party.userId ?? party.clientId ?? "unknown";

/** The supplier's catalogs by catalog identifier; each named one must be a published catalog of that supplier. */
async function catalogsOf(
  lookups: Pick<RequestLookups, "findPublishedCatalogIds">,
  supplierCompanyId: string,
  catalogIds: string[],
): Promise<Map<string, string>> {
  if (catalogIds.length > MAX_SUBSCRIPTIONS)
    throw new RegistrationError("invalid", `At most ${MAX_SUBSCRIPTIONS} catalogs can be named at once.`);
  if (new Set(catalogIds).size !== catalogIds.length)
    throw new RegistrationError("invalid", "A catalog is named twice.");
  const found = await lookups.findPublishedCatalogIds(supplierCompanyId, catalogIds);
  const unknown = catalogIds.find((catalogId) => !found.has(catalogId));
  if (unknown !== undefined) throw new RegistrationError("invalid", `The supplier publishes no catalog "${unknown}".`);
  return found;
}

/** An optician company asks a supplier to register it as a customer (status requested). */
export async function requestRegistration(
  stores: Stores,
  party: RegistrationParty,
  request: { supplierId: string; clientId: string; catalogs: string[] },
): Promise<RegistrationView> {
  if (party.company.kind !== "eye_care_professional")
    throw new RegistrationError("forbidden", "Only an optician's company can request a registration at a supplier.");
  checkClientId(request.clientId);
  const row = await stores.registrations.saveRequested(
    async (lookups) => {
      const supplier = await lookups.findSupplier(request.supplierId);
      if (!supplier) throw new RegistrationError("invalid", `There is no supplier "${request.supplierId}".`);
      const catalogs = await catalogsOf(lookups, supplier.id, request.catalogs);
      const pair = { opticianCompanyId: party.company.id, supplierCompanyId: supplier.id };
      if (await lookups.hasRegistration(pair, true))
        throw new RegistrationError("conflict", `Your company already has an open registration at ${supplier.name}.`);
      return { ...pair, clientId: request.clientId, catalogKeys: [...catalogs.values()], changedBy: actorOf(party) };
    },
    (row) => ({
      type: "registration.requested",
      userId: party.userId,
      companyId: party.company.id,
      clientId: party.clientId,
      details: {
        registrationId: row.id,
        supplierCompanyId: row.supplierCompanyId,
        opticianCompanyId: party.company.id,
      },
    }),
  );
  // Two requests at once: the unique key (optician, supplier, open) lets one in.
  if (!row) throw new RegistrationError("conflict", "Your company already has an open registration at this supplier.");
  return viewOf(row);
}

/**
 * Changes a registration made at `version` (undefined: If-Match was `*`, whatever version is current). Throws
 * RegistrationError: not_found, forbidden, invalid, stale.
 */
export async function changeRegistration(
  stores: Stores,
  party: RegistrationParty,
  id: string,
  version: number | undefined,
  change: RegistrationChange,
): Promise<RegistrationView> {
  const changed = await stores.registrations.saveChange(visibleTo(party), id, {
    decide: (row) => {
      if (version !== undefined && row.version !== version) throw stale();
      const from = row.status as RegistrationStatus;
      checkChange(sideOf(party, row), from, change);
      const to = "status" in change ? change.status : from;
      if ("customerGroups" in change) checkCustomerGroups(change.customerGroups);
      return {
        status: to,
        open: isOpen(to),
        customerGroups: "customerGroups" in change ? change.customerGroups : undefined,
        subscriptions: "subscriptions" in change ? change.subscriptions : undefined,
        changedBy: actorOf(party),
        audit: {
          type: "registration.changed",
          userId: party.userId,
          companyId: party.company.id,
          clientId: party.clientId,
          details: {
            registrationId: id,
            from,
            to,
            ...("subscriptions" in change ? { subscriptions: change.subscriptions } : {}),
          },
        },
      };
    },
    catalogsOf,
  });
  if (changed === "not_found") throw notFound(id);
  if (changed === "stale") throw stale();
  return viewOf(changed);
}
