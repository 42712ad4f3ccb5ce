/** Supplier registrations and the platform API's callers in memory (registration-store.ts, api-caller-store.ts). */
import { randomUUID } from "node:crypto";
import type { ApiCallerStore } from "@/lib/store/api-caller-store";
import type { AuditStore } from "@/lib/store/audit-store";
import type { RegistrationScope, RegistrationStore, RequestLookups } from "@/lib/store/registration-store";
import type { Registration, RegistrationRecord } from "@/lib/store/models/registration";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

/** A registration as stored: `open` while requested or active (one per pair), and what hangs on it. */
export interface StoredRegistration extends Registration {
  open: boolean;
  /** Subscription status by catalog row id. */
  subscriptions: Map<string, string>;
  whiteLabelNames: { articleNumber: string; name: string }[];
  history: { status: string; changedBy: string; changedAt: Date }[];
}

const inScope = (row: StoredRegistration, scope: RegistrationScope) =>
  (!scope.opticianCompanyId || row.opticianCompanyId === scope.opticianCompanyId) &&
  (!scope.supplierCompanyId || row.supplierCompanyId === scope.supplierCompanyId);

function lookupsOf(tables: MemoryTables): RequestLookups {
  return {
    async findSupplier(supplierId) {
      const company = [...tables.companies.values()].find((c) => c.supplierId === supplierId && c.kind === "supplier");
      return company ? { id: company.id, name: company.name } : null;
    },
    async findPublishedCatalogIds(supplierCompanyId, catalogIds) {
      const released = new Set([...tables.catalogRevisions.values()].filter((r) => r.released).map((r) => r.catalogId));
      const found = [...tables.catalogs.values()].filter(
        (c) => c.supplierCompanyId === supplierCompanyId && catalogIds.includes(c.catalogId) && released.has(c.id),
      );
      return new Map(found.map((catalog) => [catalog.catalogId, catalog.id]));
    },
    async hasRegistration(pair, openOnly) {
      return [...tables.registrations.values()].some(
        (row) =>
          row.opticianCompanyId === pair.opticianCompanyId &&
          row.supplierCompanyId === pair.supplierCompanyId &&
          (!openOnly || row.open),
      );
    },
  };
}

function recordOf(tables: MemoryTables, row: StoredRegistration): RegistrationRecord {
  const { open: _open, subscriptions, whiteLabelNames: _names, history: _history, ...registration } = row;
  return copy({
    ...registration,
    optician: tables.companies.get(row.opticianCompanyId)!,
    supplier: tables.companies.get(row.supplierCompanyId)!,
    subscriptions: [...subscriptions].map(([catalogKey, status]) => ({
      status,
      catalog: { catalogId: tables.catalogs.get(catalogKey)?.catalogId ?? catalogKey },
    })),
  });
}

/** A new registration of the pair, refused (null) while the pair has an open one. */
function insertRegistration(
  tables: MemoryTables,
  fields: Omit<Registration, "id" | "version" | "createdAt" | "updatedAt"> & { changedBy: string },
): StoredRegistration | null {
  const { changedBy, ...registration } = fields;
  const open = ["requested", "active"].includes(registration.status);
  const twin = [...tables.registrations.values()].some(
    (row) =>
      row.open &&
      open &&
      row.opticianCompanyId === registration.opticianCompanyId &&
      row.supplierCompanyId === registration.supplierCompanyId,
  );
  if (twin) return null;
  const now = new Date();
  const row: StoredRegistration = {
    ...copy(registration),
    id: randomUUID(),
    version: 1,
    createdAt: now,
    updatedAt: now,
    open,
    subscriptions: new Map(),
    whiteLabelNames: [],
    history: [{ status: registration.status, changedBy, changedAt: now }],
  };
  tables.registrations.set(row.id, row);
  return row;
}

/** Changes a registration as its rules decide, with its subscriptions, history and audit event. */
async function changeRegistration(
  tables: MemoryTables,
  audit: AuditStore,
  ...[scope, id, rules]: Parameters<RegistrationStore["saveChange"]>
): ReturnType<RegistrationStore["saveChange"]> {
  const row = tables.registrations.get(id);
  if (!row || !inScope(row, scope)) return "not_found";
  const update = rules.decide(recordOf(tables, row));
  // The subscriptions' catalogs are checked before anything changes, as the database's transaction would roll back.
  const catalogs = update.subscriptions
    ? await rules.catalogsOf(
        lookupsOf(tables),
        row.supplierCompanyId,
        update.subscriptions.map((s) => s.catalogId),
      )
    : undefined;
  if (update.status !== row.status)
    row.history.push({ status: update.status, changedBy: update.changedBy, changedAt: new Date() });
  Object.assign(row, { status: update.status, open: update.open, version: row.version + 1, updatedAt: new Date() });
  if (update.customerGroups !== undefined) row.customerGroups = [...update.customerGroups];
  for (const { catalogId, status } of update.subscriptions ?? [])
    row.subscriptions.set(catalogs!.get(catalogId)!, status);
  await audit.record(update.audit);
  return recordOf(tables, row);
}

const activeOf = (tables: MemoryTables, opticianCompanyId: string) =>
  [...tables.registrations.values()].filter(
    (row) => row.opticianCompanyId === opticianCompanyId && row.status === "active",
  );

/** The company's active registrations with their subscriptions, as the catalog services' statement reads them. */
const activeRows = (tables: MemoryTables, opticianCompanyId: string) =>
  activeOf(tables, opticianCompanyId).map((row) =>
    copy({
      registrationId: row.id,
      supplierCompanyId: row.supplierCompanyId,
      clientId: row.clientId,
      customerGroups: row.customerGroups,
      subscriptions: [...row.subscriptions].map(([catalogId, status]) => ({ catalogId, status })),
    }),
  );

export function memoryRegistrationStore(tables: MemoryTables, audit: AuditStore): RegistrationStore {
  const rows = () => [...tables.registrations.values()];
  return {
    async list(scope, options) {
      const after = options.after;
      return rows()
        .filter((row) => inScope(row, scope) && (!options.status || row.status === options.status))
        .filter(
          (row) =>
            !after ||
            row.createdAt < after.createdAt ||
            (row.createdAt.getTime() === after.createdAt.getTime() && row.id < after.id),
        )
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        .slice(0, options.limit)
        .map((row) => recordOf(tables, row));
    },
    async find(scope, id) {
      const row = tables.registrations.get(id);
      return row && inScope(row, scope) ? recordOf(tables, row) : null;
    },
    has: (pair, openOnly) => lookupsOf(tables).hasRegistration(pair, openOnly),
    async saveRequested(prepare, event) {
      const { catalogKeys, ...request } = await prepare(lookupsOf(tables));
      const row = insertRegistration(tables, { ...request, status: "requested", customerGroups: [] });
      if (!row) return null;
      for (const key of catalogKeys) row.subscriptions.set(key, "Subscribed");
      const record = recordOf(tables, row);
      await audit.record(event(record));
      return record;
    },
    saveChange: (...args) => changeRegistration(tables, audit, ...args),
    async findActive(opticianCompanyId, supplierCompanyId) {
      const row = activeOf(tables, opticianCompanyId).find(
        (candidate) => candidate.supplierCompanyId === supplierCompanyId,
      );
      if (!row) return null;
      const { open: _open, history: _history, subscriptions, ...registration } = row;
      const linked = [...subscriptions].map(([catalogId, status]) => ({ catalogId, status }));
      return copy({ ...registration, subscriptions: linked });
    },
    listActive: async (opticianCompanyId) => activeRows(tables, opticianCompanyId),
    async save({ catalogIds, whiteLabelNames, ...registration }) {
      const row = insertRegistration(tables, registration);
      if (!row) throw Object.assign(new Error("the pair has an open registration"), { code: "P2002" });
      for (const catalog of tables.catalogs.values())
        if (catalog.supplierCompanyId === row.supplierCompanyId && catalogIds.includes(catalog.catalogId))
          row.subscriptions.set(catalog.id, "Subscribed");
      row.whiteLabelNames = copy(whiteLabelNames);
    },
    hasSupplierWebServices: async () => tables.webServices.length > 0,
    async saveSupplierWebServices(services) {
      for (const service of services) tables.webServices.push({ ...copy(service), id: randomUUID() });
    },
  };
}

export function memoryApiCallerStore(tables: MemoryTables): ApiCallerStore {
  const callerOf = async (companyId: string) => {
    const company = tables.companies.get(companyId);
    if (!company) return undefined;
    const { id, name, kind, supplierId, requireSecondFactor } = company;
    return { company: { id, name, kind, supplierId, requireSecondFactor }, registrations: activeRows(tables, id) };
  };
  return {
    async ofUser(userId) {
      const user = tables.users.get(userId);
      return user?.active ? callerOf(user.companyId) : undefined;
    },
    ofCompany: callerOf,
  };
}
