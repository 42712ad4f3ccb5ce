/**
 * The email domains a company's administrator claims, proves and gives up on /portal/company, and the management API
 * does (/manage/v1/companies/{id}/domains). A company's administrator or own client proves a domain by its DNS TXT
 * record only; an operator's management client may also vouch for one (`verified`, as `companies domains add
 * --verified` does). Only a domain the company claims can be verified (the registry checks that as it marks it) or
 * given up (checked here). No management client changes the operator company's domains: ssoActing refuses it
 * (operator-company-reach.ts), as a domain there would route sign-ins to operator accounts.
 */
import "server-only";
import {
  addCompanyDomain,
  listCompanyDomains,
  removeCompanyDomain,
  verifyCompanyDomain,
  type CompanyDomainJson,
} from "@/lib/admin/company-domains";
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import { normalizeDomain } from "@/lib/http/domain-name";
import { AccessDenied, type Actor } from "@/lib/rights/actor";
import { ssoActing } from "@/lib/rights/company-sso-settings";

/** The company's domains, verified or not; CompanySsoError "not_found" for a company there is not. */
export async function companyDomainsFor(
  actor: Actor,
  companyId: string,
  access: "read" | "write" = "read",
): Promise<CompanyDomainJson[]> {
  const acting = await ssoActing(actor, access, companyId);
  return listCompanyDomains(acting.context.stores, acting.companyId);
}

/**
 * Claims a domain for the company; the answer names the DNS record that proves it. `verified` vouches for it at once,
 * which only an operator's client may.
 */
export async function claimCompanyDomain(
  actor: Actor,
  domain: string,
  options: { companyId?: string; verified?: boolean } = {},
): Promise<CompanyDomainJson> {
  const { context, companyId, byOperator, by } = await ssoActing(actor, "write", options.companyId);
  if (options.verified && !byOperator) throw new AccessDenied("forbidden");
  return addCompanyDomain(context.stores, companyId, domain, { verified: options.verified ?? false, byOperator, by });
}

/** Who acts, with the domain in its stored form, when the company claims it; else CompanySsoError. */
async function ownDomain(actor: Actor, rawDomain: string, companyId?: string) {
  const acting = await ssoActing(actor, "write", companyId);
  const domain = normalizeDomain(rawDomain);
  const held = await acting.context.stores.companySso.findDomain(domain);
  if (held?.companyId !== acting.companyId)
    throw new CompanySsoError("not_found", `the company claims no domain "${domain}"`);
  return { ...acting, domain };
}

/**
 * Looks the domain's TXT record up (the context's lookup, else the system's resolvers) and marks it verified, while
 * the company claims it: a claim another company took over during the lookup stays unverified.
 */
export async function verifyOwnCompanyDomain(
  actor: Actor,
  rawDomain: string,
  companyId?: string,
): Promise<CompanyDomainJson> {
  const acting = await ssoActing(actor, "write", companyId);
  const { stores, dnsLookup } = acting.context;
  return verifyCompanyDomain(stores, rawDomain, dnsLookup, { companyId: acting.companyId, by: acting.by });
}

/** Gives up one of the company's domains: its people's sign-in no longer goes to the company's provider. */
export async function giveUpCompanyDomain(
  actor: Actor,
  rawDomain: string,
  companyId?: string,
): Promise<CompanyDomainJson> {
  const { context, domain, by } = await ownDomain(actor, rawDomain, companyId);
  return removeCompanyDomain(context.stores, domain, by);
}
