/**
 * Supplier registrations (`supplier_registrations`) with their status history, catalog subscriptions and white-label
 * names, and the suppliers' web services. Every write is one transaction with its history entry and its audit event.
 * A change names the version it was made on and the UPDATE compares it, so of two concurrent writers exactly one
 * wins, on both databases; two requests for the same pair at once meet the unique key (optician, supplier, open),
 * which is why a closed registration stores `open` as NULL. The customer links of the catalog services (active
 * registrations with their subscriptions) are read with a named statement (lib/db/statements/api-callers.ts).
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { Company, SupplierRegistration, SupplierWebService } from "@/lib/db/rows";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";

export { activeRegistrations, type ActiveRegistrationRow } from "@/lib/db/statements/api-callers";

export type RegistrationRow = SupplierRegistration & {
  optician: Company;
  supplier: Company;
  subscriptions: { status: string; catalog: { catalogId: string } }[];
};

/** The registrations one may see: an optician's, those at a supplier, or (empty) all. */
export type RegistrationScope = { opticianCompanyId?: string; supplierCompanyId?: string };

export interface RegistrationPosition {
  createdAt: Date;
  id: string;
}

const INCLUDE = { optician: true, supplier: true, subscriptions: { include: { catalog: true } } } as const;

/** Newest first; `after` continues a list after that registration. */
export function listRegistrationRows(
  db: Db,
  scope: RegistrationScope,
  options: { status?: string; after?: RegistrationPosition; limit: number },
): Promise<RegistrationRow[]> {
  const after = options.after;
  return db.supplierRegistration.findMany({
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
}

export function findRegistrationRow(
  db: Pick<DbTransaction, "supplierRegistration">,
  scope: RegistrationScope,
  id: string,
): Promise<RegistrationRow | null> {
  return db.supplierRegistration.findFirst({ where: { id, ...scope }, include: INCLUDE });
}

/** Whether the pair has a registration: any, or (`openOnly`) one that is requested or active. */
export async function hasRegistration(
  db: Pick<DbTransaction, "supplierRegistration">,
  pair: { opticianCompanyId: string; supplierCompanyId: string },
  openOnly: boolean,
): Promise<boolean> {
  const where = openOnly ? { ...pair, open: true } : pair;
  return (await db.supplierRegistration.findFirst({ where, select: { id: true } })) !== null;
}

export interface RequestedRegistration {
  opticianCompanyId: string;
  supplierCompanyId: string;
  clientId: string;
  /** the row ids of the catalogs subscribed to */
  catalogKeys: string[];
  /** the user, or the client acting for no user */
  changedBy: string;
}

/**
 * Stores a requested registration with its history entry, its subscriptions and the audit event `audit` describes.
 * `prepare` runs first in the same transaction: it says what to store, or refuses by throwing. Null, with nothing
 * written, when another open registration of the pair got in first.
 */
export async function storeRequestedRegistration(
  db: Db,
  prepare: (tx: DbTransaction) => Promise<RequestedRegistration>,
  audit: (row: RegistrationRow) => AuditEvent,
): Promise<RegistrationRow | null> {
  try {
    return await db.$transaction(async (tx) => {
      const { catalogKeys, changedBy, ...registration } = await prepare(tx);
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
      await recordAuditEvent(tx, audit(row));
      return row;
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

export interface RegistrationChangeRules {
  /** Sees the registration as stored and returns the update, or refuses it by throwing. */
  decide: (row: RegistrationRow) => RegistrationUpdate;
  /** The supplier's catalogs (row id by identifier) for the named ones, or refuses them by throwing. */
  catalogsOf: (tx: DbTransaction, supplierCompanyId: string, catalogIds: string[]) => Promise<Map<string, string>>;
}

/**
 * Changes a registration in one transaction: the update as `rules.decide` makes it, its subscriptions, a history entry
 * when the status changes, and the audit event; returns the registration as changed. Nothing is written when there is
 * no such registration in scope, or when another change came first (the version decided on is no longer current).
 */
export function storeRegistrationChange(
  db: Db,
  scope: RegistrationScope,
  id: string,
  rules: RegistrationChangeRules,
): Promise<RegistrationRow | "not_found" | "stale"> {
  return db.$transaction(async (tx) => {
    const row = await findRegistrationRow(tx, scope, id);
    if (!row) return "not_found";
    const update = rules.decide(row);
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
    return (await findRegistrationRow(tx, scope, id))!;
  });
}

async function storeSubscriptions(
  tx: DbTransaction,
  row: RegistrationRow,
  subscriptions: { catalogId: string; status: string }[],
  catalogsOf: RegistrationChangeRules["catalogsOf"],
): Promise<void> {
  const catalogs = await catalogsOf(
    tx,
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
export function findActiveRegistration(db: Db, opticianCompanyId: string, supplierCompanyId: string) {
  return db.supplierRegistration.findFirst({
    where: { opticianCompanyId, supplierCompanyId, status: "active" },
    include: { subscriptions: true, whiteLabelNames: true },
  });
}

/** A registration as the demo data set describes it: its catalogs by identifier, its customers' article names. */
export interface NewRegistration {
  opticianCompanyId: string;
  supplierCompanyId: string;
  clientId: string;
  status: string;
  customerGroups: number[];
  catalogIds: string[];
  whiteLabelNames: { articleNumber: string; name: string }[];
  changedBy: string;
}

/** Stores an open registration with its history entry, subscriptions and white-label names, in one transaction. */
export async function storeRegistration(db: Db, registration: NewRegistration): Promise<void> {
  const { opticianCompanyId, supplierCompanyId, clientId, status, changedBy } = registration;
  await db.$transaction(async (tx) => {
    const row = await tx.supplierRegistration.create({
      data: {
        opticianCompanyId,
        supplierCompanyId,
        clientId,
        status,
        open: true,
        customerGroups: JSON.stringify(registration.customerGroups),
        history: { create: { status, changedBy } },
      },
    });
    const catalogs = await tx.catalog.findMany({
      where: { supplierCompanyId, catalogId: { in: registration.catalogIds } },
    });
    for (const catalog of catalogs)
      await tx.catalogSubscription.create({ data: { registrationId: row.id, catalogId: catalog.id } });
    for (const name of registration.whiteLabelNames)
      await tx.whiteLabelName.create({ data: { registrationId: row.id, ...name } });
  });
}

export async function hasSupplierWebServices(db: Db): Promise<boolean> {
  return (await db.supplierWebService.count()) > 0;
}

export async function storeSupplierWebServices(db: Db, services: Omit<SupplierWebService, "id">[]): Promise<void> {
  await db.supplierWebService.createMany({
    data: services.map((service) => ({ ...service, id: crypto.randomUUID() })),
  });
}
