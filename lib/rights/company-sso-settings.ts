/**
 * A company's own sign-in as its administrators look after it on /portal/company (issue 46) and the management API
 * does (/manage/v1/companies/{id}/sso): the provider's settings (its secret never read back), its switches, and the
 * view of both with the company's email domains. A company's administrator, and a company's own management client
 * (`manage.company.sso.*`), act for their own company only, held to a company's rules: the provider must be on a
 * public address, whatever OUTBOUND_ALLOW lets operators reach. An operator's management client (`manage.sso.*`)
 * acts for any company as `companies sso …` does, with an operator's freedoms (OUTBOUND_ALLOW's ranges, keeping a
 * secret an operator stored, vouching for domains), but never for the operator company (operator-company-reach.ts):
 * a provider or a vouched-for domain there would sign people in as operators. Operators on the pages use the CLI;
 * their company has none.
 */
import "server-only";
import { listCompanyDomains, type CompanyDomainJson } from "@/lib/admin/company-domains";
import { parseCompanySso } from "@/lib/admin/company-sso-metadata";
import {
  CompanySsoError,
  removeCompanySso,
  setCompanySso,
  companySsoJson,
  type CompanySsoJson,
} from "@/lib/admin/company-sso-registry";
import { ENDPOINTS } from "@/lib/http/paths";
import { AccessDenied, isOperator, requirePlatformAdmin, type Actor, type SignedInUser } from "@/lib/rights/actor";
import { administeredCompany, type AdministeredCompany } from "@/lib/rights/company-people";
import { refuseClientOnOperatorCompany } from "@/lib/rights/operator-company-reach";
import type { ServiceContext } from "@/lib/service-context";

export interface CompanySsoView {
  /** null until the company's provider is set up */
  provider: CompanySsoJson | null;
  domains: CompanyDomainJson[];
  /** OptiGate's redirect URI, to register at the provider */
  callbackUrl: string;
}

/** Who acts on a company's sign-in, for which company, and with whose rules. */
export interface SsoActing {
  context: ServiceContext;
  companyId: string;
  /** an operator's rules and freedoms (an operator's management client); a company's otherwise */
  byOperator: boolean;
  /** the person, for the audit trail; a management client is named there by the API */
  by?: string;
}

/** The company whose sign-in the actor looks after: their own, as its administrator; never the operator's. */
export async function ssoAdministered(actor: Actor): Promise<[SignedInUser, AdministeredCompany]> {
  const [user, company] = await administeredCompany(actor, undefined);
  if (company.kind === "operator") throw new AccessDenied("forbidden");
  return [user, company];
}

/**
 * The check of every read and change: a management client with the scope of this access (its own company only, for
 * a company's client), or the company's administrator (a company named must be their own).
 */
export async function ssoActing(actor: Actor, access: "read" | "write", companyId?: string): Promise<SsoActing> {
  if (actor.kind === "manager") {
    if (companyId === undefined) throw new AccessDenied("forbidden");
    if (!actor.company) {
      const admin = requirePlatformAdmin(actor, `manage.sso.${access}`);
      if (access === "write")
        refuseClientOnOperatorCompany(actor, await admin.context.stores.companies.find(companyId));
      return { ...admin, companyId, byOperator: true };
    }
    refuseClientOnOperatorCompany(actor, actor.company);
    if (actor.company.id !== companyId || !actor.scopes.has(`manage.company.sso.${access}`))
      throw new AccessDenied("forbidden");
    return { context: actor.context, companyId, byOperator: false };
  }
  const [user, company] = await ssoAdministered(actor);
  if (companyId !== undefined && companyId !== company.id) throw new AccessDenied("forbidden");
  return { context: user.context, companyId: company.id, byOperator: false, by: user.session.user.id };
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

const noCompany = (companyId: string) => new CompanySsoError("not_found", `there is no company "${companyId}"`);

/** The company's provider, null while nothing is set up; CompanySsoError "not_found" for a company there is not. */
export async function companySsoIfSet(
  actor: Actor,
  companyId: string,
  access: "read" | "write" = "read",
): Promise<CompanySsoJson | null> {
  const acting = await ssoActing(actor, access, companyId);
  const { stores } = acting.context;
  const sso = await stores.companySso.find(acting.companyId);
  if (sso) return companySsoJson(sso);
  if (!(await stores.companies.exists(acting.companyId))) throw noCompany(acting.companyId);
  return null;
}

/**
 * Sets the company's provider from its description (the fields of `companies sso set`'s file; an omitted secret keeps
 * the stored one, omitted switches stay as they are). Throws CompanySsoMetadataError or CompanySsoError, writing
 * nothing.
 */
export async function saveCompanySsoSettings(
  actor: Actor,
  description: Record<string, unknown>,
  companyId?: string,
): Promise<CompanySsoJson> {
  const { context, byOperator, by, ...acting } = await ssoActing(actor, "write", companyId);
  const { config, stores } = context;
  const rules = { production: config.production, outboundAllow: byOperator ? config.outboundAllow : undefined };
  const write = parseCompanySso(description, rules);
  return setCompanySso(stores, acting.companyId, write, { secretKey: config.secretKey, byOperator, by });
}

/** Turns sign-in at the provider, or "SSO only", on or off; CompanySsoError "not_found" while nothing is set up. */
export async function switchCompanySsoSetting(
  actor: Actor,
  which: "enabled" | "ssoOnly",
  on: boolean,
  companyId?: string,
): Promise<void> {
  const { context, by, ...acting } = await ssoActing(actor, "write", companyId);
  const { stores } = context;
  const changed =
    which === "enabled"
      ? await stores.companySso.setEnabled(acting.companyId, on, by)
      : await stores.companySso.setSsoOnly(acting.companyId, on, by);
  if (changed !== "not_found") return;
  if (!(await stores.companies.exists(acting.companyId))) throw noCompany(acting.companyId);
  throw new CompanySsoError("not_found", "the company has no identity provider set up");
}

/** Removes the provider: the company's people sign in with passwords again; domains and linked accounts stay. */
export async function removeCompanySsoSettings(actor: Actor, companyId?: string): Promise<void> {
  const { context, by, ...acting } = await ssoActing(actor, "write", companyId);
  await removeCompanySso(context.stores, acting.companyId, by);
}
