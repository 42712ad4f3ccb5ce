/**
 * Supplier registrations in the database: read as their party sees them, requested, and changed under optimistic
 * concurrency. Every write is one transaction with its status history and its audit event; a change names the
 * version it was made on and is refused as stale when another change came first (the version is compared in the
 * UPDATE itself, so of two concurrent writers exactly one wins, on both databases).
 */
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Db, DbTransaction } from "@/lib/db/prisma";
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
} from "@/lib/registrations/registration-rules";

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

export interface RegistrationPosition {
  createdAt: Date;
  id: string;
}

const INCLUDE = { optician: true, supplier: true, subscriptions: { include: { catalog: true } } } as const;
type RegistrationRow = NonNullable<Awaited<ReturnType<Db["supplierRegistration"]["findFirst"]>>> & {
  optician: { name: string };
  supplier: { name: string; supplierId: string | null };
  subscriptions: { status: string; catalog: { catalogId: string } }[];
};

function viewOf(row: RegistrationRow): RegistrationView {
  return {
    id: row.id,
    opticianCompanyId: row.opticianCompanyId,
    opticianName: row.optician.name,
    supplierId: row.supplier.supplierId ?? "",
    supplierName: row.supplier.name,
    clientId: row.clientId,
    status: row.status as RegistrationStatus,
    customerGroups: JSON.parse(row.customerGroups) as number[],
    subscriptions: row.subscriptions
      .map((s) => ({ catalogId: s.catalog.catalogId, status: s.status as SubscriptionStatus }))
      .sort((a, b) => (a.catalogId < b.catalogId ? -1 : 1)),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

/** The registrations a party may see: an optician's own, those at a supplier, and every one for the operator. */
function visibleTo(party: RegistrationParty) {
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
  db: Db,
  party: RegistrationParty,
  options: { status?: RegistrationStatus; after?: RegistrationPosition; limit: number },
): Promise<RegistrationView[]> {
  const after = options.after;
  const rows = await db.supplierRegistration.findMany({
    where: {
      ...visibleTo(party),
      ...(options.status ? { status: options.status } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    include: INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit,
  });
  return rows.map(viewOf);
}

async function findVisible(db: DbTransaction, party: RegistrationParty, id: string): Promise<RegistrationRow> {
  const row = await db.supplierRegistration.findFirst({ where: { id, ...visibleTo(party) }, include: INCLUDE });
  if (!row) throw new RegistrationError("not_found", `There is no registration "${id}".`);
  return row;
}

export async function getRegistration(db: Db, party: RegistrationParty, id: string): Promise<RegistrationView> {
  return viewOf(await findVisible(db, party, id));
}

const actorOf = (party: RegistrationParty) => party.userId ?? party.clientId ?? "unknown";

/** The supplier's catalogs by catalog identifier; each named one must be a published catalog of that supplier. */
async function catalogsOf(
  tx: DbTransaction,
  supplierCompanyId: string,
  catalogIds: string[],
): Promise<Map<string, string>> {
  if (catalogIds.length > MAX_SUBSCRIPTIONS)
    throw new RegistrationError("invalid", `At most ${MAX_SUBSCRIPTIONS} catalogs can be named at once.`);
  if (new Set(catalogIds).size !== catalogIds.length)
    throw new RegistrationError("invalid", "A catalog is named twice.");
  const rows = await tx.catalog.findMany({
    where: { supplierCompanyId, catalogId: { in: catalogIds }, revisions: { some: { released: true } } },
    select: { id: true, catalogId: true },
  });
  const found = new Map(rows.map((row) => [row.catalogId, row.id]));
  const unknown = catalogIds.find((catalogId) => !found.has(catalogId));
  if (unknown !== undefined) throw new RegistrationError("invalid", `The supplier publishes no catalog "${unknown}".`);
  return found;
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";

/** An optician company asks a supplier to register it as a customer (status requested). */
export async function requestRegistration(
  db: Db,
  party: RegistrationParty,
  request: { supplierId: string; clientId: string; catalogs: string[] },
): Promise<RegistrationView> {
  if (party.company.kind !== "eye_care_professional")
    throw new RegistrationError("forbidden", "Only an optician's company can request a registration at a supplier.");
  checkClientId(request.clientId);
  try {
    return await db.$transaction(async (tx) => {
      const supplier = await tx.company.findFirst({ where: { supplierId: request.supplierId, kind: "supplier" } });
      if (!supplier) throw new RegistrationError("invalid", `There is no supplier "${request.supplierId}".`);
      const catalogs = await catalogsOf(tx, supplier.id, request.catalogs);
      if (
        await tx.supplierRegistration.findFirst({
          where: { opticianCompanyId: party.company.id, supplierCompanyId: supplier.id, open: true },
          select: { id: true },
        })
      ) {
        throw new RegistrationError("conflict", `Your company already has an open registration at ${supplier.name}.`);
      }
      const row = await tx.supplierRegistration.create({
        data: {
          opticianCompanyId: party.company.id,
          supplierCompanyId: supplier.id,
          clientId: request.clientId,
          status: "requested",
          open: true,
          history: { create: { status: "requested", changedBy: actorOf(party) } },
          subscriptions: { create: [...catalogs.values()].map((catalogId) => ({ catalogId, status: "Subscribed" })) },
        },
        include: INCLUDE,
      });
      await recordAuditEvent(tx, {
        type: "registration.requested",
        userId: party.userId,
        clientId: party.clientId,
        details: { registrationId: row.id, supplierCompanyId: supplier.id, opticianCompanyId: party.company.id },
      });
      return viewOf(row);
    });
  } catch (error) {
    // Two requests at once: the unique key (optician, supplier, open) lets one in.
    if (isUniqueViolation(error))
      throw new RegistrationError("conflict", "Your company already has an open registration at this supplier.");
    throw error;
  }
}

async function applySubscriptions(
  tx: DbTransaction,
  row: RegistrationRow,
  subscriptions: { catalogId: string; status: SubscriptionStatus }[],
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

/**
 * Changes a registration made at `version` (undefined: If-Match was `*`, whatever version is current). Throws
 * RegistrationError: not_found, forbidden, invalid, stale.
 */
export async function changeRegistration(
  db: Db,
  party: RegistrationParty,
  id: string,
  version: number | undefined,
  change: RegistrationChange,
): Promise<RegistrationView> {
  const changed = await db.$transaction(async (tx) => {
    const row = await findVisible(tx, party, id);
    if (version !== undefined && row.version !== version)
      throw new RegistrationError("stale", "The registration was changed since you read it; read it again.");
    const from = row.status as RegistrationStatus;
    checkChange(sideOf(party, row), from, change);
    const to = "status" in change ? change.status : from;
    if ("customerGroups" in change) checkCustomerGroups(change.customerGroups);
    const updated = await tx.supplierRegistration.updateMany({
      where: { id, version: row.version },
      data: {
        status: to,
        open: isOpen(to) ? true : null,
        version: row.version + 1,
        updatedAt: new Date(),
        ...("customerGroups" in change ? { customerGroups: JSON.stringify(change.customerGroups) } : {}),
      },
    });
    if (updated.count === 0)
      throw new RegistrationError("stale", "The registration was changed since you read it; read it again.");
    if ("subscriptions" in change) await applySubscriptions(tx, row, change.subscriptions);
    if (to !== from)
      await tx.supplierRegistrationChange.create({
        data: { registrationId: id, status: to, changedBy: actorOf(party) },
      });
    await recordAuditEvent(tx, {
      type: "registration.changed",
      userId: party.userId,
      clientId: party.clientId,
      details: {
        registrationId: id,
        from,
        to,
        ...("subscriptions" in change ? { subscriptions: change.subscriptions } : {}),
      },
    });
    return findVisible(tx, party, id);
  });
  return viewOf(changed);
}
