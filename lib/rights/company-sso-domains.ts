/**
 * The email domains a company's administrator claims, proves and gives up on /portal/company. A domain is proved by
 * its DNS TXT record only (an operator's word is the CLI's), and only a domain the administrator's own company claims
 * can be verified (the registry checks that as it marks it) or given up (checked here).
 */
import "server-only";
import {
  addCompanyDomain,
  removeCompanyDomain,
  verifyCompanyDomain,
  type CompanyDomainJson,
} from "@/lib/admin/company-domains";
import { CompanySsoError } from "@/lib/admin/company-sso-registry";
import { normalizeDomain } from "@/lib/http/domain-name";
import type { Actor } from "@/lib/rights/actor";
import { ssoAdministered } from "@/lib/rights/company-sso-settings";

/** Claims a domain for the actor's company; the answer names the DNS record that proves it. */
export async function claimCompanyDomain(actor: Actor, domain: string): Promise<CompanyDomainJson> {
  const [user, company] = await ssoAdministered(actor);
  return addCompanyDomain(user.context.stores, company.id, domain, {
    verified: false,
    byOperator: false,
    by: user.session.user.id,
  });
}

/** The actor, with the domain in its stored form, when the actor's company claims it; else CompanySsoError. */
async function ownDomain(actor: Actor, rawDomain: string) {
  const [user, company] = await ssoAdministered(actor);
  const domain = normalizeDomain(rawDomain);
  const held = await user.context.stores.companySso.findDomain(domain);
  if (held?.companyId !== company.id)
    throw new CompanySsoError("not_found", `the company claims no domain "${domain}"`);
  return { user, domain };
}

/**
 * Looks the domain's TXT record up (the context's lookup, else the system's resolvers) and marks it verified, while
 * the company claims it: a claim another company took over during the lookup stays unverified.
 */
export async function verifyOwnCompanyDomain(actor: Actor, rawDomain: string): Promise<CompanyDomainJson> {
  const [user, company] = await ssoAdministered(actor);
  const { stores, dnsLookup } = user.context;
  return verifyCompanyDomain(stores, rawDomain, dnsLookup, { companyId: company.id, by: user.session.user.id });
}

/** Gives up one of the company's domains: its people's sign-in no longer goes to the company's provider. */
export async function giveUpCompanyDomain(actor: Actor, rawDomain: string): Promise<CompanyDomainJson> {
  const { user, domain } = await ownDomain(actor, rawDomain);
  return removeCompanyDomain(user.context.stores, domain, user.session.user.id);
}
