/**
 * The customer link of the catalog services: an optician company's active registration at a supplier. Only an active
 * registration counts; a requested, rejected or withdrawn one is no link at all.
 */
import type { Stores } from "@/lib/store/stores";
import type { ActiveRegistrationRow } from "@/lib/store/api-caller-store";

export interface CustomerLink {
  registrationId: string;
  /** the customer number at the supplier (ClientID) */
  clientId: string;
  customerGroups: number[];
  /** subscription status by catalog (the catalog's row id) */
  subscriptions: Map<string, string>;
}

const linkOf = (row: {
  id: string;
  clientId: string;
  customerGroups: number[];
  subscriptions: { catalogId: string; status: string }[];
}): CustomerLink => ({
  registrationId: row.id,
  clientId: row.clientId,
  customerGroups: row.customerGroups,
  subscriptions: new Map(row.subscriptions.map((s) => [s.catalogId, s.status])),
});

/** Customer links by supplier company, from active registrations read on the driver. */
export function customerLinksFrom(rows: ActiveRegistrationRow[]): Map<string, CustomerLink> {
  return new Map(
    rows.map((row) => [
      row.supplierCompanyId,
      linkOf({
        id: row.registrationId,
        clientId: row.clientId,
        customerGroups: row.customerGroups,
        subscriptions: row.subscriptions,
      }),
    ]),
  );
}

/** The company's customer links by supplier company (every catalog list for a company needs them). */
export async function customerLinksOf(stores: Stores, opticianCompanyId: string): Promise<Map<string, CustomerLink>> {
  return customerLinksFrom(await stores.registrations.listActive(opticianCompanyId));
}

/** The company's customer link at one supplier, with the customer's names of white-label articles and its last change. */
export async function customerLinkAt(
  stores: Stores,
  opticianCompanyId: string,
  supplierCompanyId: string,
): Promise<(CustomerLink & { whiteLabelNames: Map<string, string>; changedAt: Date }) | undefined> {
  const row = await stores.registrations.findActive(opticianCompanyId, supplierCompanyId);
  return row
    ? {
        ...linkOf(row),
        whiteLabelNames: new Map(row.whiteLabelNames.map((n) => [n.articleNumber, n.name])),
        changedAt: row.updatedAt,
      }
    : undefined;
}
