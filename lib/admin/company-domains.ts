/**
 * The email domains a company claims, as an operator (`companies domains …`) or the company's administrator manages
 * them: claimed with a token to publish in DNS, verified by looking that record up (or by an operator's word), given
 * up. One domain belongs to one company; who holds a domain someone else claims is told to operators only.
 */
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import {
  checkVerificationRecord,
  newVerificationToken,
  verificationRecord,
  type TxtLookup,
} from "@/lib/admin/domain-verification";
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
const notClaimed = (domain: string) => new CompanySsoError("not_found", `no company claims the domain "${domain}"`);

/**
 * Claims a domain for the company; `verified` (operators only) vouches for it at once. Claiming a domain the company
 * holds already gives it back (verified now, when asked); another company's is refused.
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
  if (!("takenBy" in added)) return domainJson(added);
  if (added.takenBy !== companyId)
    throw new CompanySsoError(
      "domain_taken",
      options.byOperator
        ? `the domain "${domain}" belongs to company "${added.takenBy}"; remove it there first`
        : `the domain "${domain}" is claimed by another company`,
    );
  const held = await stores.companySso.findDomain(domain);
  if (!held) throw notClaimed(domain);
  if (!verifiedBy || held.verifiedAt) return domainJson(held);
  const verified = await stores.companySso.verifyDomain(domain, held.verificationToken, verifiedBy, options.by);
  if (!verified) throw notClaimed(domain);
  return domainJson(verified);
}

/**
 * Verifies a claimed domain by its DNS record (a domain verified already stays so); throws a DomainVerificationError
 * when the record does not prove it. Whether the actor may verify this company's domain is the caller's to check.
 */
export async function verifyCompanyDomain(
  stores: Stores,
  rawDomain: string,
  lookup: TxtLookup | undefined,
  by?: string,
): Promise<CompanyDomainJson> {
  const domain = normalizeDomain(rawDomain);
  const held = await stores.companySso.findDomain(domain);
  if (!held) throw notClaimed(domain);
  if (held.verifiedAt) return domainJson(held);
  await checkVerificationRecord(domain, held.verificationToken, lookup);
  const verified = await stores.companySso.verifyDomain(domain, held.verificationToken, "dns", by);
  if (!verified) throw notClaimed(domain);
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
