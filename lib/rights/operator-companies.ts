/**
 * The operator pages' and the management API's access to companies (/admin/companies, /manage/v1/companies): every
 * function requires an operator or an operator's management client with the scope. The same validation and registry
 * as `companies add|update|deactivate|activate` (lib/admin/company-registry.ts).
 */
import "server-only";
import { parseCompany } from "@/lib/admin/company-metadata";
import * as registry from "@/lib/admin/company-registry";
import type { CompanyJson } from "@/lib/admin/company-registry";
import { partnerScopesOf, setPartnerSandbox, setPartnerScopes } from "@/lib/admin/partner-access";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { requirePlatformAdmin, type Actor } from "@/lib/rights/actor";

const READ = "manage.companies.read";
const WRITE = "manage.companies.write";

export type { CompanyJson };
export { CompanyMetadataError } from "@/lib/admin/company-metadata";
export { CompanyRegistryError } from "@/lib/admin/company-registry";
export { PartnerAccessError } from "@/lib/admin/partner-access";

/** The companies whose name, id or supplier id contains the search text (all without one), by name. */
export async function listCompaniesFor(actor: Actor, search?: string): Promise<CompanyJson[]> {
  const { context } = requirePlatformAdmin(actor, READ);
  const companies = await registry.listCompanies(context.stores);
  const needle = search?.trim().toLowerCase();
  if (!needle) return companies;
  return companies.filter((company) =>
    [company.name, company.id, company.supplier_id ?? ""].some((text) => text.toLowerCase().includes(needle)),
  );
}

/** One company, or undefined when there is none with this id. */
export async function companyFor(actor: Actor, companyId: string): Promise<CompanyJson | undefined> {
  const { context } = requirePlatformAdmin(actor, READ);
  return registry.showCompany(context.stores, companyId).catch(() => undefined);
}

/** Adds a company (no id given) or replaces one's description, from the fields of the operator's form. */
export async function saveCompany(
  actor: Actor,
  companyId: string | undefined,
  description: Record<string, unknown>,
): Promise<CompanyJson> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  const registration = parseCompany(description);
  return companyId === undefined
    ? registry.addCompany(context.stores, registration, by)
    : registry.updateCompany(context.stores, companyId, registration, by);
}

/** Deactivates (its users signed out everywhere, their applications told) or activates a company. */
export async function setCompanyActive(actor: Actor, companyId: string, active: boolean): Promise<void> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  if (active) await registry.activate(context.stores, companyId, by);
  else
    await registry.deactivate(
      context.stores,
      companyId,
      (sessionIds) => announceBackchannelLogout(context, sessionIds),
      by,
    );
}

/** A software vendor's platform scopes: those there are and those allowed; null for any other company. */
export function partnerScopesFor(actor: Actor, companyId: string) {
  const { context } = requirePlatformAdmin(actor, READ);
  return partnerScopesOf(context.stores, companyId, context.config.apiScopePrefix);
}

/** Turns a software vendor's sandbox for applications waiting for approval on or off (`partners sandbox`). */
export async function allowPartnerSandbox(actor: Actor, companyId: string, allowed: boolean): Promise<void> {
  const { context } = requirePlatformAdmin(actor, WRITE);
  await setPartnerSandbox(context.stores, companyId, allowed);
}

/** Sets the platform scopes a software vendor's applications may ask for (`partners scopes` on the CLI). */
export async function allowPartnerScopes(actor: Actor, companyId: string, scopes: string[]): Promise<void> {
  const { context } = requirePlatformAdmin(actor, WRITE);
  await setPartnerScopes(context.stores, companyId, scopes, context.config.apiScopePrefix);
}
