/**
 * The email domains companies claim (`company_domains`), part of the company-SSO store (company-sso-store.ts): one
 * company per domain, the database's primary key deciding between two companies that claim it at once. A domain
 * routes sign-in to its company's provider only once verified; verifying is a conditional update on the token that
 * was checked, so a domain removed and claimed anew meanwhile (with a new token) is not verified by the old check.
 */
import type { Db } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { bindDb } from "@/lib/store/bind-db";
import { companyExists } from "@/lib/store/company-store";
import type { CompanyDomain, DomainVerifier } from "@/lib/store/models/company-sso";

/** A domain claimed: already verified when an operator vouches for it as they add it. */
interface NewCompanyDomain {
  domain: string;
  companyId: string;
  verificationToken: string;
  verifiedBy: "operator" | null;
}

const domainOf = (row: Omit<CompanyDomain, "verifiedBy"> & { verifiedBy: string | null }): CompanyDomain => ({
  ...row,
  verifiedBy: row.verifiedBy as DomainVerifier | null,
});

/** Claims a domain for a company, audited; `takenBy` names the company holding it already (perhaps this one). */
async function addCompanyDomain(
  db: Db,
  added: NewCompanyDomain,
  by?: string,
  now = new Date(),
): Promise<CompanyDomain | { takenBy: string } | "not_found"> {
  const { domain, companyId, verifiedBy } = added;
  try {
    return await db.$transaction(async (tx) => {
      if (!(await companyExists(tx, companyId))) return "not_found" as const;
      const verifiedAt = verifiedBy ? now : null;
      const row = await tx.companyDomain.create({ data: { ...added, verifiedAt, createdAt: now } });
      await recordAuditEvent(tx, {
        type: "company.domain_added",
        userId: by,
        details: { companyId, domain, verifiedBy },
      });
      return domainOf(row);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const holder = await db.companyDomain.findUnique({ where: { domain }, select: { companyId: true } });
    if (!holder) throw error;
    return { takenBy: holder.companyId };
  }
}

function listCompanyDomains(db: Db, companyId: string): Promise<CompanyDomain[]> {
  return db.companyDomain
    .findMany({ where: { companyId }, orderBy: { domain: "asc" } })
    .then((rows) => rows.map(domainOf));
}

async function findCompanyDomain(db: Db, domain: string): Promise<CompanyDomain | null> {
  const row = await db.companyDomain.findUnique({ where: { domain } });
  return row && domainOf(row);
}

/**
 * Marks the domain verified, audited, while it still holds the token that was checked; a domain verified already
 * stays as it was. Null when the domain is gone or was claimed anew.
 */
function verifyCompanyDomain(
  db: Db,
  domain: string,
  verificationToken: string,
  method: DomainVerifier,
  by?: string,
  now = new Date(),
): Promise<CompanyDomain | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.companyDomain.updateMany({
      where: { domain, verificationToken, verifiedAt: null },
      data: { verifiedAt: now, verifiedBy: method },
    });
    const row = await tx.companyDomain.findUnique({ where: { domain } });
    if (!row || row.verificationToken !== verificationToken) return null;
    if (count === 1)
      await recordAuditEvent(tx, {
        type: "company.domain_verified",
        userId: by,
        details: { companyId: row.companyId, domain, verifiedBy: method },
      });
    return domainOf(row);
  });
}

/** Gives up the domain, audited; the removed row, or null when nobody claimed it. */
function removeCompanyDomain(db: Db, domain: string, by?: string): Promise<CompanyDomain | null> {
  return db.$transaction(async (tx) => {
    const row = await tx.companyDomain.findUnique({ where: { domain } });
    if (!row) return null;
    await tx.companyDomain.delete({ where: { domain } });
    await recordAuditEvent(tx, {
      type: "company.domain_removed",
      userId: by,
      details: { companyId: row.companyId, domain },
    });
    return domainOf(row);
  });
}

export interface CompanyDomainStore {
  /** Claims a domain; `takenBy` when a company holds it already, "not_found" when there is no such company. */
  addDomain(
    added: NewCompanyDomain,
    by?: string,
    now?: Date,
  ): Promise<CompanyDomain | { takenBy: string } | "not_found">;
  listDomains(companyId: string): Promise<CompanyDomain[]>;
  findDomain(domain: string): Promise<CompanyDomain | null>;
  /** Marks it verified while it holds `verificationToken`; null when it is gone or was claimed anew. */
  verifyDomain(
    domain: string,
    verificationToken: string,
    method: DomainVerifier,
    by?: string,
    now?: Date,
  ): Promise<CompanyDomain | null>;
  removeDomain(domain: string, by?: string): Promise<CompanyDomain | null>;
}

export const prismaCompanyDomainStore = (db: Db): CompanyDomainStore =>
  bindDb(db, {
    addDomain: addCompanyDomain,
    listDomains: listCompanyDomains,
    findDomain: findCompanyDomain,
    verifyDomain: verifyCompanyDomain,
    removeDomain: removeCompanyDomain,
  });
