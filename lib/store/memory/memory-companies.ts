/** Companies and suppliers' web services in memory, with the database store's rules (lib/store/company-store.ts). */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import type { CompanyStore } from "@/lib/store/company-store";
import type { AuditEventType } from "@/lib/store/models/audit-event";
import type { Company } from "@/lib/store/models/user";
import { signOutInMemory } from "@/lib/store/memory/memory-sign-out";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

type CompanyFields = Parameters<CompanyStore["insert"]>[1];

/** The change's audit event, naming the company and its kind. */
const companyEvent = (audit: AuditStore, type: AuditEventType, company: Company, by?: string) =>
  audit.record({ type, userId: by, details: { companyId: company.id, companyKind: company.kind } });

/** Deactivates the company with its active users (marked, to come back with it) and ends their sessions. */
async function deactivateCompany(
  tables: MemoryTables,
  audit: AuditStore,
  id: string,
  by?: string,
  now = new Date(),
): ReturnType<CompanyStore["deactivate"]> {
  const company = tables.companies.get(id);
  if (!company) return "not_found";
  if (!company.active) return "unchanged";
  const users = [...tables.users.values()].filter((user) => user.companyId === id && user.active);
  for (const user of users) Object.assign(user, { active: false, suspendedWithCompany: true });
  const userIds = users.map((user) => user.id);
  const sessionIds = signOutInMemory(tables, userIds, now);
  company.active = false;
  await companyEvent(audit, "company.deactivated", company, by);
  return { userIds, sessionIds };
}

/** Activates the company and the users deactivated with it; how many. */
async function activateCompany(
  tables: MemoryTables,
  audit: AuditStore,
  id: string,
  by?: string,
): ReturnType<CompanyStore["activate"]> {
  const company = tables.companies.get(id);
  if (!company) return "not_found";
  if (company.active) return "unchanged";
  const users = [...tables.users.values()].filter((user) => user.companyId === id && user.suspendedWithCompany);
  for (const user of users) Object.assign(user, { active: true, suspendedWithCompany: false });
  company.active = true;
  await companyEvent(audit, "company.activated", company, by);
  return users.length;
}

/** The second-factor rule; switching it on ends the sessions that gave none (but the one kept) and their codes. */
async function saveRequirement(
  tables: MemoryTables,
  audit: AuditStore,
  id: string,
  change: Parameters<CompanyStore["saveSecondFactorRequirement"]>[1],
  now = new Date(),
): ReturnType<CompanyStore["saveSecondFactorRequirement"]> {
  const company = tables.companies.get(id);
  if (!company) return "not_found";
  if (!change.required && company.secondFactorRuleByOperator && !change.byOperator) return "operator_rule";
  company.requireSecondFactor = change.required;
  if (change.byOperator) company.secondFactorRuleByOperator = change.required;
  const members = new Set([...tables.users.values()].filter((user) => user.companyId === id).map((user) => user.id));
  const ended = change.required
    ? [...tables.loginSessions.values()].filter(
        (session) =>
          members.has(session.userId) &&
          !session.endedAt &&
          !session.amr.includes("mfa") &&
          session.id !== change.keepSessionId,
      )
    : [];
  for (const session of ended) session.endedAt = now;
  const endedSessionIds = ended.map((session) => session.id);
  for (const [hash, code] of tables.authorizationCodes)
    if (code.loginSessionId && endedSessionIds.includes(code.loginSessionId) && !code.consumedAt)
      tables.authorizationCodes.delete(hash);
  await audit.record({
    type: "company.updated",
    userId: change.by,
    details: { companyId: id, requireSecondFactor: change.required, byOperator: change.byOperator },
  });
  return { endedSessionIds };
}

export function memoryCompanyStore(tables: MemoryTables, audit: AuditStore): CompanyStore {
  const companies = tables.companies;
  const recordOf = (company: Company) => ({
    ...copy(company),
    webServices: copy(tables.webServices.filter((service) => service.supplierCompanyId === company.id)).sort(
      (a, b) => a.priority - b.priority || (a.name < b.name ? -1 : 1),
    ),
  });
  const supplierIdHolder = (supplierId: string | null | undefined, other: string) =>
    supplierId ? [...companies.values()].some((c) => c.supplierId === supplierId && c.id !== other) : false;
  const write = (id: string, { webServices, ...fields }: CompanyFields, existing?: Company): Company => {
    const company: Company = {
      country: null,
      supplierId: null,
      name1: null,
      name2: null,
      portalUrl: null,
      active: true,
      requireSecondFactor: false,
      secondFactorRuleByOperator: false,
      signInNotices: null,
      createdAt: new Date(),
      ...existing,
      ...copy(fields),
      id,
    };
    companies.set(id, company);
    tables.webServices = tables.webServices.filter((service) => service.supplierCompanyId !== id);
    for (const service of webServices)
      tables.webServices.push({ ...copy(service), id: randomUUID(), supplierCompanyId: id });
    return company;
  };
  return {
    find: async (companyId) => copy(companies.get(companyId) ?? null),
    async findSupplier(supplierId) {
      const company = [...companies.values()].find((c) => c.supplierId === supplierId && c.kind === "supplier");
      return company ? { id: company.id, name: company.name } : null;
    },
    async findStates(companyIds) {
      return new Map(
        companyIds.flatMap((id) => {
          const company = companies.get(id);
          return company ? [[id, { name: company.name, kind: company.kind, active: company.active }] as const] : [];
        }),
      );
    },
    exists: async (companyId) => companies.has(companyId),
    async findRecord(companyId) {
      const company = companies.get(companyId);
      return company ? recordOf(company) : null;
    },
    listRecords: async () =>
      [...companies.values()]
        .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
        .map(recordOf),
    async save(company) {
      if (companies.has(company.id) || supplierIdHolder(company.supplierId, company.id))
        throw new Error("a unique key is taken");
      write(company.id, { ...company, webServices: [] });
    },
    async saveSupplierDetails(companyId, details) {
      const company = companies.get(companyId);
      if (!company) throw new Error(`no company ${companyId}`);
      Object.assign(company, copy(details));
    },
    async insert(id, company, by) {
      if (supplierIdHolder(company.supplierId, id)) return "supplier_id_taken";
      if (companies.has(id)) return "id_taken";
      const row = write(id, company);
      await companyEvent(audit, "company.added", row, by);
      return recordOf(row);
    },
    async replace(id, company, by) {
      const existing = companies.get(id);
      if (!existing) return "not_found";
      if (supplierIdHolder(company.supplierId, id)) return "supplier_id_taken";
      const row = write(id, company, existing);
      await companyEvent(audit, "company.updated", row, by);
      return recordOf(row);
    },
    deactivate: (id, by, now) => deactivateCompany(tables, audit, id, by, now),
    activate: (id, by) => activateCompany(tables, audit, id, by),
    saveSecondFactorRequirement: (id, change, now) => saveRequirement(tables, audit, id, change, now),
    async saveSignInNotices(id, on, by) {
      const company = companies.get(id);
      if (!company) return false;
      company.signInNotices = on;
      await audit.record({ type: "company.updated", userId: by, details: { companyId: id, signInNotices: on } });
      return true;
    },
  };
}
