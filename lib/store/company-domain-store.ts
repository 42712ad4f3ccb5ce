/**
 * The email domains companies claim (`company_domains`), part of the company-SSO store (company-sso-store.ts): one
 * company per domain, the database's primary key deciding between two companies that claim it at once. A claim nobody
 * proved blocks nobody (whoever can publish the DNS record decides, not who came first): another company claiming the
 * domain takes it over. A domain routes sign-in to its company's provider only once verified; verifying is a
 * conditional update on the company and token that were checked, so a domain taken over or claimed anew meanwhile
 * (with a new token) is not verified by the old check.
 */
import { MAX_DOMAINS_PER_COMPANY } from "@/lib/config/policy";
import type { Db, DbTransaction } from "@/lib/db/prisma";
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

/** A claim as it is verified: the company holding the domain, and the token its DNS record was checked for. */
type DomainClaim = Pick<CompanyDomain, "domain" | "companyId" | "verificationToken">;

/** Why a domain is not claimed: no such company, it holds as many as it may, or `takenBy` (perhaps this one) holds it. */
type ClaimRefusal = "not_found" | "too_many_domains" | { takenBy: string };

/** Drops another company's claim nobody proved, audited for that company, unless it was verified meanwhile. */
async function dropUnverifiedClaim(tx: DbTransaction, held: DomainClaim, claimant: string, by?: string): Promise<void> {
  const { domain, companyId, verificationToken } = held;
  const { count } = await tx.companyDomain.deleteMany({
    where: { domain, companyId, verificationToken, verifiedAt: null },
  });
  if (count === 1)
    await recordAuditEvent(tx, {
      type: "company.domain_removed",
      userId: by,
      details: { companyId, domain, takenOverBy: claimant },
    });
}

function claimDomain(db: Db, added: NewCompanyDomain, by: string | undefined, now: Date) {
  const { domain, companyId, verifiedBy } = added;
  return db.$transaction(async (tx): Promise<CompanyDomain | ClaimRefusal> => {
    if (!(await companyExists(tx, companyId))) return "not_found";
    const held = await tx.companyDomain.findUnique({ where: { domain } });
    if (held && (held.companyId === companyId || held.verifiedAt)) return { takenBy: held.companyId };
    if ((await tx.companyDomain.count({ where: { companyId } })) >= MAX_DOMAINS_PER_COMPANY) return "too_many_domains";
    if (held) await dropUnverifiedClaim(tx, held, companyId, by);
    const verifiedAt = verifiedBy ? now : null;
    const row = await tx.companyDomain.create({ data: { ...added, verifiedAt, createdAt: now } });
    await recordAuditEvent(tx, {
      type: "company.domain_added",
      userId: by,
      details: { companyId, domain, verifiedBy },
    });
    return domainOf(row);
  });
}

/** Claims a domain for a company, audited, taking it over from another company that never proved it. */
async function addCompanyDomain(
  db: Db,
  added: NewCompanyDomain,
  by?: string,
  now = new Date(),
): Promise<CompanyDomain | ClaimRefusal> {
  try {
    return await claimDomain(db, added, by, now);
  } catch (error) {
    // Claimed (or verified) by another company at the same moment: decided again against that claim.
    if (!isUniqueViolation(error)) throw error;
    return claimDomain(db, added, by, now);
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
 * Marks the domain verified, audited, while the company that was checked still holds it with the token that was
 * checked; a domain verified already stays as it was. Null when the domain is gone, taken over or claimed anew.
 */
function verifyCompanyDomain(
  db: Db,
  claim: DomainClaim,
  method: DomainVerifier,
  by?: string,
  now = new Date(),
): Promise<CompanyDomain | null> {
  const { domain, companyId, verificationToken } = claim;
  return db.$transaction(async (tx) => {
    const { count } = await tx.companyDomain.updateMany({
      where: { domain, companyId, verificationToken, verifiedAt: null },
      data: { verifiedAt: now, verifiedBy: method },
    });
    const row = await tx.companyDomain.findUnique({ where: { domain } });
    if (row?.companyId !== companyId || row.verificationToken !== verificationToken) return null;
    if (count === 1)
      await recordAuditEvent(tx, {
        type: "company.domain_verified",
        userId: by,
        details: { companyId, domain, verifiedBy: method },
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
  /**
   * Claims a domain, taking it over when another company holds it unverified; `takenBy` when this company or another
   * that verified it holds it, "too_many_domains" when the company holds MAX_DOMAINS_PER_COMPANY, "not_found" when
   * there is no such company.
   */
  addDomain(added: NewCompanyDomain, by?: string, now?: Date): Promise<CompanyDomain | ClaimRefusal>;
  listDomains(companyId: string): Promise<CompanyDomain[]>;
  findDomain(domain: string): Promise<CompanyDomain | null>;
  /** Marks it verified while its company holds it with that token; null when it is gone, taken over or claimed anew. */
  verifyDomain(claim: DomainClaim, method: DomainVerifier, by?: string, now?: Date): Promise<CompanyDomain | null>;
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
