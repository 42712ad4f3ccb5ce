/**
 * The email domains a company claims, as an operator (`companies domains …`) or the company's administrator manages
 * them: claimed with a token to publish in DNS, verified by looking that record up (or by an operator's word), given
 * up. One domain belongs to one company, and a claim nobody verified yields to another company's; who holds a domain
 * someone else claims is told to operators only. A company claims at most MAX_DOMAINS_PER_COMPANY.
 */
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import {
  checkVerificationRecord,
  newVerificationToken,
  verificationRecord,
  type TxtLookup,
} from "@/lib/admin/domain-verification";
import { MAX_DOMAINS_PER_COMPANY } from "@/lib/config/policy";
import { normalizeDomain } from "@/lib/http/domain-name";
import type { CompanyDomain } from "@/lib/store/models/company-sso";
import type { Stores } from "@/lib/store/stores";

/** A domain as the CLI prints it; an unverified one with the DNS record that would prove it. */
export interface CompanyDomainJson {
  domain: string;
  company_id: string;
  verified: boolean;
  verified_at: string | null;
  /** "dns" or "operator" */
  verified_by: string | null;
  created_at: string;
  dns_record?: { name: string; type: "TXT"; value: string };
}

function domainJson(row: CompanyDomain): CompanyDomainJson {
  const shown: CompanyDomainJson = {
    domain: row.domain,
    company_id: row.companyId,
    verified: row.verifiedAt !== null,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    verified_by: row.verifiedBy,
    created_at: row.createdAt.toISOString(),
  };
  return row.verifiedAt ? shown : { ...shown, dns_record: verificationRecord(row.domain, row.verificationToken) };
}

/** Who acts: an operator may vouch for a domain and learns who holds one; a company's administrator neither. */
export interface DomainActor {
  byOperator: boolean;
  by?: string;
}

const noCompany = (companyId: string) => new CompanySsoError("not_found", `there is no company "${companyId}"`);
const notClaimed = (domain: string, companyId?: string) =>
  new CompanySsoError(
    "not_found",
    companyId ? `company "${companyId}" claims no domain "${domain}"` : `no company claims the domain "${domain}"`,
  );

function tooManyDomains(companyId: string, byOperator: boolean) {
  const most = `${MAX_DOMAINS_PER_COMPANY} domains already, the most a company may`;
  return new CompanySsoError(
    "too_many_domains",
    byOperator
      ? `company "${companyId}" claims ${most}; remove one first`
      : `the company claims ${most}; give one up first`,
  );
}

/**
 * Claims a domain for the company; `verified` (operators only) vouches for it at once. Claiming a domain the company
 * holds already gives it back (verified now, when asked); another company's is taken over while unverified (the DNS
 * record decides whose it is), refused once verified.
 */
export async function addCompanyDomain(
  stores: Stores,
  companyId: string,
  rawDomain: string,
  options: DomainActor & { verified: boolean },
): Promise<CompanyDomainJson> {
  const domain = normalizeDomain(rawDomain);
  const verifiedBy = options.verified && options.byOperator ? ("operator" as const) : null;
  const added = await stores.companySso.addDomain(
    { domain, companyId, verificationToken: newVerificationToken(), verifiedBy },
    options.by,
  );
  if (added === "not_found") throw noCompany(companyId);
  if (added === "too_many_domains") throw tooManyDomains(companyId, options.byOperator);
  if (!("takenBy" in added)) return domainJson(added);
  if (added.takenBy !== companyId)
    throw new CompanySsoError(
      "domain_taken",
      options.byOperator
        ? `the domain "${domain}" belongs to company "${added.takenBy}"; remove it there first`
        : `the domain "${domain}" is claimed and verified by another company`,
    );
  const held = await stores.companySso.findDomain(domain);
  if (held?.companyId !== companyId) throw notClaimed(domain, companyId);
  if (!verifiedBy || held.verifiedAt) return domainJson(held);
  const verified = await stores.companySso.verifyDomain(held, verifiedBy, options.by);
  if (!verified) throw notClaimed(domain, companyId);
  return domainJson(verified);
}

/**
 * Verifies a claimed domain by its DNS record (a domain verified already stays so); throws a DomainVerificationError
 * when the record does not prove it. With `companyId`, only that company's claim, still its own when marked verified
 * (not one taken over during the lookup); whether the actor may speak for the company is the caller's to check.
 */
export async function verifyCompanyDomain(
  stores: Stores,
  rawDomain: string,
  lookup: TxtLookup | undefined,
  { companyId, by }: { companyId?: string; by?: string } = {},
): Promise<CompanyDomainJson> {
  const domain = normalizeDomain(rawDomain);
  const held = await stores.companySso.findDomain(domain);
  if (!held || (companyId !== undefined && held.companyId !== companyId)) throw notClaimed(domain, companyId);
  if (held.verifiedAt) return domainJson(held);
  await checkVerificationRecord(domain, held.verificationToken, lookup);
  const verified = await stores.companySso.verifyDomain(held, "dns", by);
  if (!verified) throw notClaimed(domain, companyId);
  return domainJson(verified);
}

export async function listCompanyDomains(stores: Stores, companyId: string): Promise<CompanyDomainJson[]> {
  if (!(await stores.companies.exists(companyId))) throw noCompany(companyId);
  return (await stores.companySso.listDomains(companyId)).map(domainJson);
}

/** Gives up a domain: sign-in of its people no longer goes to the company's provider. */
export async function removeCompanyDomain(stores: Stores, rawDomain: string, by?: string): Promise<CompanyDomainJson> {
  const domain = normalizeDomain(rawDomain);
  const removed = await stores.companySso.removeDomain(domain, by);
  if (!removed) throw notClaimed(domain);
  return domainJson(removed);
}
