/**
 * Supplier registrations (`supplier_registrations`) with their status history, catalog subscriptions and white-label
 * names, and the suppliers' web services. Every write is one transaction with its history entry and its audit event.
 * A change names the version it was made on and the UPDATE compares it, so of two concurrent writers exactly one
 * wins, on both databases; two requests for the same pair at once meet the unique key (optician, supplier, open),
 * which is why a closed registration stores `open` as NULL. The customer links of the catalog services (active
 * registrations with their subscriptions) are read with a named statement (lib/db/statements/api-callers.ts).
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { SupplierRegistration } from "@/lib/db/rows";
import { bindDb } from "@/lib/store/bind-db";
import {
  hasSupplierWebServices,
  storeRegistration,
  storeSupplierWebServices,
  type NewRegistration,
} from "@/lib/store/demo-registration-store";
import { findSupplier } from "@/lib/store/company-store";
import { findPublishedCatalogIds } from "@/lib/store/catalog-store";
import type { ActiveRegistration, RegistrationRecord } from "@/lib/store/models/registration";
import type { SupplierWebService } from "@/lib/store/models/user";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { activeRegistrations, type ActiveRegistrationRow } from "@/lib/db/statements/api-callers";

type RegistrationRow = Omit<RegistrationRecord, "customerGroups"> &
  Pick<SupplierRegistration, "customerGroups" | "open">;

/** The row with its customer groups read and without the unique key's helper column. */
function recordOf<R extends { customerGroups: string; open: boolean | null }>(
  row: R,
): Omit<R, "customerGroups" | "open"> & { customerGroups: number[] } {
  const { open: _open, customerGroups, ...rest } = row;
  return { ...rest, customerGroups: JSON.parse(customerGroups) as number[] };
}

/** The registrations one may see: an optician's, those at a supplier, or (empty) all. */
export type RegistrationScope = { opticianCompanyId?: string; supplierCompanyId?: string };

export interface RegistrationPosition {
  createdAt: Date;
  id: string;
}

const INCLUDE = { optician: true, supplier: true, subscriptions: { include: { catalog: true } } } as const;

/** Newest first; `after` continues a list after that registration. */
async function listRegistrationRows(
  db: Db,
  scope: RegistrationScope,
  options: { status?: string; after?: RegistrationPosition; limit: number },
): Promise<RegistrationRecord[]> {
  const after = options.after;
  const rows = await db.supplierRegistration.findMany({
    where: {
      ...scope,
      ...(options.status ? { status: options.status } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    include: INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit,
  });
  return rows.map(recordOf);
}

function findRow(
  db: Pick<DbTransaction, "supplierRegistration">,
  scope: RegistrationScope,
  id: string,
): Promise<RegistrationRow | null> {
  return db.supplierRegistration.findFirst({ where: { id, ...scope }, include: INCLUDE });
}

async function findRegistrationRow(db: Db, scope: RegistrationScope, id: string): Promise<RegistrationRecord | null> {
  const row = await findRow(db, scope, id);
  return row && recordOf(row);
}

/** Whether the pair has a registration: any, or (`openOnly`) one that is requested or active. */
async function hasRegistration(
  db: Pick<DbTransaction, "supplierRegistration">,
  pair: { opticianCompanyId: string; supplierCompanyId: string },
  openOnly: boolean,
): Promise<boolean> {
  const where = openOnly ? { ...pair, open: true } : pair;
  return (await db.supplierRegistration.findFirst({ where, select: { id: true } })) !== null;
}

interface RequestedRegistration {
  opticianCompanyId: string;
  supplierCompanyId: string;
  clientId: string;
  /** the row ids of the catalogs subscribed to */
  catalogKeys: string[];
  /** the user, or the client acting for no user */
  changedBy: string;
}

/** What a registration request's checks read, inside its transaction. */
export interface RequestLookups {
  findSupplier(supplierId: string): Promise<{ id: string; name: string } | null>;
  /** The row ids of the supplier's catalogs with a released revision, by catalog identifier, of those named. */
  findPublishedCatalogIds(supplierCompanyId: string, catalogIds: string[]): Promise<Map<string, string>>;
  /** Whether the pair has a registration: any, or (`openOnly`) one that is requested or active. */
  hasRegistration(pair: { opticianCompanyId: string; supplierCompanyId: string }, openOnly: boolean): Promise<boolean>;
}

const requestLookups = (tx: DbTransaction): RequestLookups => ({
  findSupplier: (supplierId) => findSupplier(tx, supplierId),
  findPublishedCatalogIds: (supplierCompanyId, catalogIds) =>
    findPublishedCatalogIds(tx, supplierCompanyId, catalogIds),
  hasRegistration: (pair, openOnly) => hasRegistration(tx, pair, openOnly),
});

/**
 * Stores a requested registration with its history entry, its subscriptions and the audit event `audit` describes.
 * `prepare` runs first in the same transaction: it says what to store, or refuses by throwing. Null, with nothing
 * written, when another open registration of the pair got in first.
 */
async function storeRequestedRegistration(
  db: Db,
  prepare: (lookups: RequestLookups) => Promise<RequestedRegistration>,
  audit: (row: RegistrationRecord) => AuditEvent,
): Promise<RegistrationRecord | null> {
  try {
    return await db.$transaction(async (tx) => {
      const { catalogKeys, changedBy, ...registration } = await prepare(requestLookups(tx));
      const row = await tx.supplierRegistration.create({
        data: {
          ...registration,
          status: "requested",
          open: true,
          history: { create: { status: "requested", changedBy } },
          subscriptions: { create: catalogKeys.map((catalogId) => ({ catalogId, status: "Subscribed" })) },
        },
        include: INCLUDE,
      });
      const record = recordOf(row);
      await recordAuditEvent(tx, audit(record));
      return record;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

interface RegistrationUpdate {
  status: string;
  /** requested or active; a closed registration leaves the pair free for a new one */
  open: boolean;
  customerGroups?: number[];
  /** by catalog identifier, resolved to the supplier's catalogs after the update */
  subscriptions?: { catalogId: string; status: string }[];
  changedBy: string;
  audit: AuditEvent;
}

interface RegistrationChangeRules {
  /** Sees the registration as stored and returns the update, or refuses it by throwing. */
  decide: (row: RegistrationRecord) => RegistrationUpdate;
  /** The supplier's catalogs (row id by identifier) for the named ones, or refuses them by throwing. */
  catalogsOf: (
    lookups: Pick<RequestLookups, "findPublishedCatalogIds">,
    supplierCompanyId: string,
    catalogIds: string[],
  ) => Promise<Map<string, string>>;
}

/**
 * Changes a registration in one transaction: the update as `rules.decide` makes it, its subscriptions, a history entry
 * when the status changes, and the audit event; returns the registration as changed. Nothing is written when there is
 * no such registration in scope, or when another change came first (the version decided on is no longer current).
 */
function storeRegistrationChange(
  db: Db,
  scope: RegistrationScope,
  id: string,
  rules: RegistrationChangeRules,
): Promise<RegistrationRecord | "not_found" | "stale"> {
  return db.$transaction(async (tx) => {
    const row = await findRow(tx, scope, id);
    if (!row) return "not_found";
    const update = rules.decide(recordOf(row));
    const updated = await tx.supplierRegistration.updateMany({
      where: { id, version: row.version },
      data: {
        status: update.status,
        open: update.open ? true : null,
        version: row.version + 1,
        updatedAt: new Date(),
        ...(update.customerGroups !== undefined ? { customerGroups: JSON.stringify(update.customerGroups) } : {}),
      },
    });
    if (updated.count === 0) return "stale";
    if (update.subscriptions) await storeSubscriptions(tx, row, update.subscriptions, rules.catalogsOf);
    if (update.status !== row.status)
      await tx.supplierRegistrationChange.create({
        data: { registrationId: id, status: update.status, changedBy: update.changedBy },
      });
    await recordAuditEvent(tx, update.audit);
    // The row this transaction just changed: it is there.
    return recordOf((await findRow(tx, scope, id))!);
  });
}

async function storeSubscriptions(
  tx: DbTransaction,
  row: RegistrationRow,
  subscriptions: { catalogId: string; status: string }[],
  catalogsOf: RegistrationChangeRules["catalogsOf"],
): Promise<void> {
  const catalogs = await catalogsOf(
    requestLookups(tx),
    row.supplierCompanyId,
    subscriptions.map((s) => s.catalogId),
  );
  for (const { catalogId, status } of subscriptions) {
    const key = { registrationId: row.id, catalogId: catalogs.get(catalogId)! };
    await tx.catalogSubscription.upsert({
      where: { registrationId_catalogId: key },
      create: { ...key, status },
      update: { status },
    });
  }
}

/** The company's active registration at the supplier, with its subscriptions and white-label names. */
async function findActiveRegistration(
  db: Db,
  opticianCompanyId: string,
  supplierCompanyId: string,
): Promise<ActiveRegistration | null> {
  const row = await db.supplierRegistration.findFirst({
    where: { opticianCompanyId, supplierCompanyId, status: "active" },
    include: { subscriptions: true, whiteLabelNames: true },
  });
  return row && recordOf(row);
}

export interface RegistrationStore {
  /** Newest first; `after` continues a list after that registration. */
  list(
    scope: RegistrationScope,
    options: { status?: string; after?: RegistrationPosition; limit: number },
  ): Promise<RegistrationRecord[]>;
  find(scope: RegistrationScope, id: string): Promise<RegistrationRecord | null>;
  /** Whether the pair has a registration: any, or (`openOnly`) one that is requested or active. */
  has(pair: { opticianCompanyId: string; supplierCompanyId: string }, openOnly: boolean): Promise<boolean>;
  /** Stores a requested registration once `prepare` said what; null when another open one of the pair got in first. */
  saveRequested(
    prepare: (lookups: RequestLookups) => Promise<RequestedRegistration>,
    audit: (row: RegistrationRecord) => AuditEvent,
  ): Promise<RegistrationRecord | null>;
  /** Changes a registration as `rules` decide; nothing is written when it is not in scope or another change came first. */
  saveChange(
    scope: RegistrationScope,
    id: string,
    rules: RegistrationChangeRules,
  ): Promise<RegistrationRecord | "not_found" | "stale">;
  /** The company's active registration at the supplier, with its subscriptions and white-label names. */
  findActive(opticianCompanyId: string, supplierCompanyId: string): Promise<ActiveRegistration | null>;
  /** The company's active registrations, each with its subscriptions (the catalog services' statement). */
  listActive(opticianCompanyId: string): Promise<ActiveRegistrationRow[]>;
  /** Stores an open registration with its history, subscriptions and white-label names (the demo data set). */
  save(registration: NewRegistration): Promise<void>;
  hasSupplierWebServices(): Promise<boolean>;
  saveSupplierWebServices(services: Omit<SupplierWebService, "id">[]): Promise<void>;
}

export const prismaRegistrationStore = (db: Db): RegistrationStore =>
  bindDb(db, {
    list: listRegistrationRows,
    find: findRegistrationRow,
    has: hasRegistration,
    saveRequested: storeRequestedRegistration,
    saveChange: storeRegistrationChange,
    findActive: findActiveRegistration,
    listActive: activeRegistrations,
    save: storeRegistration,
    hasSupplierWebServices,
    saveSupplierWebServices: storeSupplierWebServices,
  });
