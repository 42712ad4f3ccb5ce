/**
 * A company's own sign-in as its administrators look after it on /portal/company (issue 46): the provider's settings
 * (its secret never read back), its switches, and the view of both with the company's email domains. Only a company's
 * own administrators, for their own company: operators keep any company's with `companies sso …`, and the operator's
 * company has none. What an administrator sets is held to a company's rules, never an operator's: the provider must be
 * on a public address, whatever OUTBOUND_ALLOW lets operators reach.
 */
import "server-only";
import { listCompanyDomains, type CompanyDomainJson } from "@/lib/admin/company-domains";
import { parseCompanySso } from "@/lib/admin/company-sso-metadata";
import { companySsoJson, CompanySsoError, setCompanySso, type CompanySsoJson } from "@/lib/admin/company-sso-registry";
import { ENDPOINTS } from "@/lib/http/paths";
import { AccessDenied, isOperator, type Actor, type SignedInUser } from "@/lib/rights/actor";
import { administeredCompany, type AdministeredCompany } from "@/lib/rights/company-people";

export interface CompanySsoView {
  /** null until the company's provider is set up */
  provider: CompanySsoJson | null;
  domains: CompanyDomainJson[];
  /** OptiGate's redirect URI, to register at the provider */
  callbackUrl: string;
}

/** The company whose sign-in the actor looks after: their own, as its administrator; never the operator's. */
export async function ssoAdministered(actor: Actor): Promise<[SignedInUser, AdministeredCompany]> {
  const [user, company] = await administeredCompany(actor, undefined);
  if (company.kind === "operator") throw new AccessDenied("forbidden");
  return [user, company];
}

/** The section's data; null for an operator, whose own company signs in with passwords and second factors only. */
export async function companySsoView(actor: Actor): Promise<CompanySsoView | null> {
  if (isOperator(actor)) return null;
  const [user, company] = await ssoAdministered(actor);
  const { stores, config } = user.context;
  const provider = await stores.companySso.find(company.id);
  return {
    provider: provider && companySsoJson(provider),
    domains: await listCompanyDomains(stores, company.id),
    callbackUrl: `${config.publicUrl}${ENDPOINTS.companySsoCallback}`,
  };
}

/**
 * Sets the company's provider from its description (the fields of `companies sso set`'s file; an omitted secret keeps
 * the stored one, the switches stay as they are). Throws CompanySsoMetadataError or CompanySsoError, writing nothing.
 */
export async function saveCompanySsoSettings(actor: Actor, description: Record<string, unknown>): Promise<void> {
  const [user, company] = await ssoAdministered(actor);
  const { config, stores } = user.context;
  const write = parseCompanySso(description, { production: config.production });
  await setCompanySso(stores, company.id, write, {
    secretKey: config.secretKey,
    byOperator: false,
    by: user.session.user.id,
  });
}

/** Turns sign-in at the provider, or "SSO only", on or off; CompanySsoError "not_found" while nothing is set up. */
export async function switchCompanySsoSetting(actor: Actor, which: "enabled" | "ssoOnly", on: boolean): Promise<void> {
  const [user, company] = await ssoAdministered(actor);
  const { stores } = user.context;
  const by = user.session.user.id;
  const changed =
    which === "enabled"
      ? await stores.companySso.setEnabled(company.id, on, by)
      : await stores.companySso.setSsoOnly(company.id, on, by);
  if (changed === "not_found") throw new CompanySsoError("not_found", "the company has no identity provider set up");
}
