/**
 * A company's own API clients on /portal/company (issue 48): its administrators (role admin) create them for their
 * own company only, see them with their secrets' dates, add and disable secrets and remove them; operators may do the
 * same for a company they name (and see every client on /admin/clients). The company is always the administered
 * one, never one a form names for an administrator, and the operator's own company has none: operators give their
 * automation platform scopes instead. A company's client cannot make clients: it is no signed-in person.
 */
import "server-only";
import {
  addCompanyClientSecret,
  createCompanyClient,
  disableCompanyClientSecret,
  listCompanyClients,
  removeCompanyClient,
  type CompanyClientJson,
  type CompanyClientRequest,
} from "@/lib/admin/company-clients";
import type { NewSecret } from "@/lib/admin/client-registry";
import { ENDPOINTS } from "@/lib/http/paths";
import { managementApiResource } from "@/lib/oauth/resource-indicators";
import { COMPANY_MANAGE_SCOPES } from "@/lib/oauth/scopes";
import { AccessDenied, isOperator, type Actor, type SignedInUser } from "@/lib/rights/actor";
import { administeredCompany, type AdministeredCompany } from "@/lib/rights/company-people";

export { CompanyClientError } from "@/lib/admin/company-clients";
export { ClientRegistryError } from "@/lib/admin/client-registry";
export type { CompanyClientJson };

export interface CompanyClientsView {
  companyId: string;
  clients: CompanyClientJson[];
  /** the scopes a company's client may be given, in the order the form offers them */
  scopes: readonly string[];
  /** where its program gets tokens (client_credentials), and the API they are for */
  tokenUrl: string;
  apiUrl: string;
}

/** The company whose API clients the actor looks after; never the operator's own. */
async function clientsAdministered(
  actor: Actor,
  companyId: string | undefined,
): Promise<[SignedInUser, AdministeredCompany]> {
  const [user, company] = await administeredCompany(actor, companyId);
  if (company.kind === "operator") throw new AccessDenied("forbidden");
  return [user, company];
}

/** The section's data; null for an operator on their own company's page, which has no company API clients. */
export async function companyClientsView(actor: Actor, companyId?: string): Promise<CompanyClientsView | null> {
  if (isOperator(actor) && companyId === undefined) return null;
  const [user, company] = await clientsAdministered(actor, companyId);
  const { stores, config } = user.context;
  return {
    companyId: company.id,
    clients: await listCompanyClients(stores, company.id),
    scopes: COMPANY_MANAGE_SCOPES,
    tokenUrl: `${config.publicUrl}${ENDPOINTS.token}`,
    apiUrl: managementApiResource(config),
  };
}

/** Creates an API client for the company with the scopes chosen; its secret is in the answer this once. */
export async function createOwnCompanyClient(
  actor: Actor,
  request: CompanyClientRequest,
  companyId?: string,
): Promise<{ client: CompanyClientJson; secret: NewSecret }> {
  const [user, company] = await clientsAdministered(actor, companyId);
  const { stores, config } = user.context;
  return createCompanyClient(stores, company.id, request, {
    apiScopePrefix: config.apiScopePrefix,
    by: user.session.user.id,
  });
}

export async function addOwnCompanyClientSecret(actor: Actor, clientId: string, companyId?: string) {
  const [user, company] = await clientsAdministered(actor, companyId);
  return addCompanyClientSecret(user.context.stores, company.id, clientId, user.session.user.id);
}

export async function disableOwnCompanyClientSecret(
  actor: Actor,
  clientId: string,
  secretId: string,
  companyId?: string,
): Promise<void> {
  const [user, company] = await clientsAdministered(actor, companyId);
  await disableCompanyClientSecret(user.context.stores, company.id, clientId, secretId, user.session.user.id);
}

export async function removeOwnCompanyClient(actor: Actor, clientId: string, companyId?: string): Promise<void> {
  const [user, company] = await clientsAdministered(actor, companyId);
  await removeCompanyClient(user.context.stores, company.id, clientId, user.session.user.id);
}
