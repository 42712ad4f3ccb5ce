/**
 * Companies (`companies`): opticians, suppliers and the operator. Suppliers are also found by their supplier
 * identifier (the supplierID of catalog files, the catalog lists and the platform API). Every read goes to the
 * database: companies change rarely, but the reads that need them are few and not on a per-token path.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import type { Company, SupplierWebService } from "@/lib/store/models/user";
import { bindDb } from "@/lib/store/bind-db";
import type { AuditEventType } from "@/lib/store/models/audit-event";
import { raiseChangeCounter } from "@/lib/db/statements/change-counters";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { signOutUsers } from "@/lib/store/user-admin-store";
import { forgetUser } from "@/lib/store/user-store";

/** A supplier's identifier, name parts and portal page, as the catalog list shows them. */
type SupplierDetails = Partial<Pick<Company, "supplierId" | "name1" | "name2" | "portalUrl">>;

type NewCompany = Pick<Company, "id" | "name" | "kind"> & Partial<Pick<Company, "country">> & SupplierDetails;

/** A company as the operator manages it: the row and, for suppliers, their web services in priority order. */
export type CompanyRecord = Company & { webServices: SupplierWebService[] };

/** What the operator writes: the company's fields and its web services (replaced as a whole). */
export type CompanyWrite = Omit<NewCompany, "id"> & {
  webServices: Pick<SupplierWebService, "type" | "name" | "url" | "priority">[];
};

const withWebServices = { webServices: { orderBy: [{ priority: "asc" as const }, { name: "asc" as const }] } };

function findCompany(db: Pick<Db, "company">, companyId: string): Promise<Company | null> {
  return db.company.findUnique({ where: { id: companyId } });
}

/** The supplier company with this supplier identifier. */
export function findSupplier(
  db: Pick<Db, "company">,
  supplierId: string,
): Promise<{ id: string; name: string } | null> {
  return db.company.findFirst({ where: { supplierId, kind: "supplier" }, select: { id: true, name: true } });
}

async function storeCompany(db: Db, company: NewCompany): Promise<void> {
  await db.company.create({ data: company });
}

async function storeSupplierDetails(db: Db, companyId: string, details: SupplierDetails): Promise<void> {
  await db.company.update({ where: { id: companyId }, data: details });
}

/** Those of these companies that exist, with their kind. */
export function findCompanyKinds(
  db: Pick<Db, "company">,
  companyIds: string[],
): Promise<{ id: string; kind: string }[]> {
  return db.company.findMany({ where: { id: { in: companyIds } }, select: { id: true, kind: true } });
}

/** Those of these companies that exist, by id, with their name, kind and whether they are active. */
async function findCompanyStates(
  db: Pick<Db, "company">,
  companyIds: string[],
): Promise<Map<string, { name: string; kind: string; active: boolean }>> {
  const rows = await db.company.findMany({
    where: { id: { in: companyIds } },
    select: { id: true, name: true, kind: true, active: true },
  });
  return new Map(rows.map(({ id, ...state }) => [id, state]));
}

export async function companyExists(db: Pick<Db, "company">, companyId: string): Promise<boolean> {
  return (await db.company.findUnique({ where: { id: companyId }, select: { id: true } })) !== null;
}

function findCompanyRecord(db: Pick<Db, "company">, companyId: string): Promise<CompanyRecord | null> {
  return db.company.findUnique({ where: { id: companyId }, include: withWebServices });
}

function listCompanyRecords(db: Pick<Db, "company">): Promise<CompanyRecord[]> {
  return db.company.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], include: withWebServices });
}

/** The change's audit event, and for suppliers a new catalog list (it shows their names and web services). */
async function recordCompanyChange(tx: DbTransaction, type: AuditEventType, company: Company, by?: string) {
  await recordAuditEvent(tx, { type, userId: by, details: { companyId: company.id, companyKind: company.kind } });
  if (company.kind === "supplier") await raiseChangeCounter(tx, "catalog_list");
}

/** The write, or which unique key refused it: the supplier id when another company holds it, else the id. */
async function takenKey(
  db: Db,
  id: string,
  supplierId: string | null | undefined,
  write: () => Promise<CompanyRecord>,
): Promise<CompanyRecord | "id_taken" | "supplier_id_taken"> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const holder = supplierId ? await db.company.findUnique({ where: { supplierId }, select: { id: true } }) : null;
    return holder && holder.id !== id ? "supplier_id_taken" : "id_taken";
  }
}

/** Registers a company with its web services and audit event, in one transaction; nothing is written when a key is taken. */
function insertCompany(
  db: Db,
  id: string,
  company: CompanyWrite,
  by?: string,
): Promise<CompanyRecord | "id_taken" | "supplier_id_taken"> {
  return takenKey(db, id, company.supplierId, () =>
    db.$transaction(async (tx) => {
      const { webServices, ...fields } = company;
      const row = await tx.company.create({
        data: { id, ...fields, webServices: { create: webServices } },
        include: withWebServices,
      });
      await recordCompanyChange(tx, "company.added", row, by);
      return row;
    }),
  );
}

/** Replaces a company's description and web services; "not_found" when there is no such company. */
async function replaceCompany(
  db: Db,
  id: string,
  company: CompanyWrite,
  by?: string,
): Promise<CompanyRecord | "not_found" | "id_taken" | "supplier_id_taken"> {
  if (!(await companyExists(db, id))) return "not_found";
  return takenKey(db, id, company.supplierId, () =>
    db.$transaction(async (tx) => {
      const { webServices, ...fields } = company;
      await tx.supplierWebService.deleteMany({ where: { supplierCompanyId: id } });
      const row = await tx.company.update({
        where: { id },
        data: { ...fields, webServices: { create: webServices } },
        include: withWebServices,
      });
      await recordCompanyChange(tx, "company.updated", row, by);
      return row;
    }),
  );
}

/** What deactivating a company ended: its users' sessions (to announce to the applications) and the users. */
export interface DeactivatedCompany {
  userIds: string[];
  sessionIds: string[];
}

/**
 * Deactivates a company in one transaction: its active users with it (marked, so that activating the company brings
 * back exactly them), their sessions ended and refresh tokens revoked, the audit event; "unchanged" when it was
 * inactive already. The users leave this process's user cache (others notice within USER_CACHE_SECONDS).
 */
export async function deactivateCompany(
  db: Db,
  id: string,
  by?: string,
  now = new Date(),
): Promise<DeactivatedCompany | "not_found" | "unchanged"> {
  const outcome = await db.$transaction(async (tx) => {
    const company = await tx.company.findUnique({ where: { id } });
    if (!company) return "not_found" as const;
    if (!company.active) return "unchanged" as const;
    const users = await tx.user.findMany({ where: { companyId: id, active: true }, select: { id: true } });
    const userIds = users.map((user) => user.id);
    await tx.user.updateMany({
      where: { id: { in: userIds } },
      data: { active: false, suspendedWithCompany: true },
    });
    const sessionIds = await signOutUsers(tx, userIds, now);
    const row = await tx.company.update({ where: { id }, data: { active: false } });
    await recordCompanyChange(tx, "company.deactivated", row, by);
    return { userIds, sessionIds };
  });
  if (typeof outcome !== "string") for (const userId of outcome.userIds) forgetUser(userId);
  return outcome;
}

/**
 * Whether everyone in the company must use a second factor, audited. An operator's decision marks the rule as the
 * operator's, which a company administrator cannot lift ("operator_rule"). Switching it on ends the sessions that
 * gave no second factor (but `keepSessionId`, the switcher's own, which is led to enrol) and leaves their ids to
 * announce. "not_found" when there is no such company.
 */
async function storeSecondFactorRequirement(
  db: Db,
  id: string,
  change: { required: boolean; byOperator: boolean; by?: string; keepSessionId?: string },
  now = new Date(),
): Promise<{ endedSessionIds: string[] } | "not_found" | "operator_rule"> {
  return db.$transaction(async (tx) => {
    const company = await tx.company.findUnique({ where: { id }, select: { secondFactorRuleByOperator: true } });
    if (!company) return "not_found" as const;
    if (!change.required && company.secondFactorRuleByOperator && !change.byOperator) return "operator_rule" as const;
    const ruleByOperator = change.byOperator ? change.required : company.secondFactorRuleByOperator;
    await tx.company.update({
      where: { id },
      data: { requireSecondFactor: change.required, secondFactorRuleByOperator: ruleByOperator },
    });
    const ended = change.required
      ? await tx.loginSession.findMany({
          where: {
            user: { companyId: id },
            endedAt: null,
            NOT: [{ amr: { contains: '"mfa"' } }, ...(change.keepSessionId ? [{ id: change.keepSessionId }] : [])],
          },
          select: { id: true },
        })
      : [];
    const endedSessionIds = ended.map((session) => session.id);
    await tx.loginSession.updateMany({ where: { id: { in: endedSessionIds } }, data: { endedAt: now } });
    // A code minted in an ended session would give a password-level token after the rule.
    await tx.authorizationCode.deleteMany({ where: { loginSessionId: { in: endedSessionIds }, consumedAt: null } });
    await recordAuditEvent(tx, {
      type: "company.updated",
      userId: change.by,
      details: { companyId: id, requireSecondFactor: change.required, byOperator: change.byOperator },
    });
    return { endedSessionIds };
  });
}

/** Switches the company's sign-in notices, audited; false when there is no such company. */
async function storeSignInNotices(db: Db, id: string, on: boolean, by?: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.company.updateMany({ where: { id }, data: { signInNotices: on } });
    if (count === 0) return false;
    await recordAuditEvent(tx, { type: "company.updated", userId: by, details: { companyId: id, signInNotices: on } });
    return true;
  });
}

/** Activates a company and the users deactivated with it; "unchanged" when it was active. */
export async function activateCompany(db: Db, id: string, by?: string): Promise<number | "not_found" | "unchanged"> {
  return db.$transaction(async (tx) => {
    const company = await tx.company.findUnique({ where: { id } });
    if (!company) return "not_found" as const;
    if (company.active) return "unchanged" as const;
    const { count } = await tx.user.updateMany({
      where: { companyId: id, suspendedWithCompany: true },
      data: { active: true, suspendedWithCompany: false },
    });
    const row = await tx.company.update({ where: { id }, data: { active: true } });
    await recordCompanyChange(tx, "company.activated", row, by);
    return count;
  });
}

export interface CompanyStore {
  find(companyId: string): Promise<Company | null>;
  /** The supplier company with this supplier identifier. */
  findSupplier(supplierId: string): Promise<{ id: string; name: string } | null>;
  /** Those of these companies that exist, by id, with their name, kind and whether they are active. */
  findStates(companyIds: string[]): Promise<Map<string, { name: string; kind: string; active: boolean }>>;
  exists(companyId: string): Promise<boolean>;
  findRecord(companyId: string): Promise<CompanyRecord | null>;
  listRecords(): Promise<CompanyRecord[]>;
  save(company: NewCompany): Promise<void>;
  saveSupplierDetails(companyId: string, details: SupplierDetails): Promise<void>;
  insert(id: string, company: CompanyWrite, by?: string): Promise<CompanyRecord | "id_taken" | "supplier_id_taken">;
  replace(
    id: string,
    company: CompanyWrite,
    by?: string,
  ): Promise<CompanyRecord | "not_found" | "id_taken" | "supplier_id_taken">;
  deactivate(id: string, by?: string, now?: Date): Promise<DeactivatedCompany | "not_found" | "unchanged">;
  activate(id: string, by?: string): Promise<number | "not_found" | "unchanged">;
  saveSecondFactorRequirement(
    id: string,
    change: { required: boolean; byOperator: boolean; by?: string; keepSessionId?: string },
    now?: Date,
  ): Promise<{ endedSessionIds: string[] } | "not_found" | "operator_rule">;
  /** Switches the company's sign-in notices on or off, audited as done `by` a user; false when there is no company. */
  saveSignInNotices(id: string, on: boolean, by?: string): Promise<boolean>;
}

export const prismaCompanyStore = (db: Db): CompanyStore =>
  bindDb(db, {
    find: findCompany,
    findSupplier,
    findStates: findCompanyStates,
    exists: companyExists,
    findRecord: findCompanyRecord,
    listRecords: listCompanyRecords,
    save: storeCompany,
    saveSupplierDetails: storeSupplierDetails,
    insert: insertCompany,
    replace: replaceCompany,
    deactivate: deactivateCompany,
    activate: activateCompany,
    saveSecondFactorRequirement: storeSecondFactorRequirement,
    saveSignInNotices: storeSignInNotices,
  });
