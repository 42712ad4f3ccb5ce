/**
 * A company's own provider as an operator (`companies sso …`) or the company's administrator sets it up, turns it on
 * and off, and removes it; each change one transaction with its audit event (lib/store/company-sso-store.ts). The
 * operator's company gets none: operator accounts sign in with OptiGate's own password and second factor, never on
 * another server's word (as federation never reaches them by email).
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { checkRoleFits, PersonFieldError, type Role } from "@/lib/admin/person-fields";
import type { SecretRefusal, SsoWriter } from "@/lib/store/company-sso-store";
import type { CompanySso, CompanySsoWrite, SsoClaimMapping } from "@/lib/store/models/company-sso";
import type { Stores } from "@/lib/store/stores";

export type CompanySsoProblem =
  | "not_found"
  | "invalid_state"
  | "domain_taken"
  | "too_many_domains"
  /** a stored client secret is not sent to settings other than those it was given for */
  | "secret_not_kept";

export class CompanySsoError extends OptiGateError<CompanySsoProblem> {
  constructor(
    readonly code: CompanySsoProblem,
    message: string,
    /** the field of the provider's description the refusal is about, when it is about one */
    readonly field?: "client_secret" | "claims.roles",
  ) {
    super(message);
  }
}

/** A provider as the CLI prints it: the fields of its file without the secret, its switches and its test mark. */
export interface CompanySsoJson {
  company_id: string;
  issuer: string;
  client_id: string;
  /** whether a client secret is stored; the secret itself is never shown */
  client_secret_set: boolean;
  token_endpoint_auth_method: string;
  scope: string;
  /** the provider's claim names, under the standard claim each stands for */
  claims: SsoClaimMapping;
  hosted_domain: string | null;
  tenant_id: string | null;
  enabled: boolean;
  sso_only: boolean;
  registered_by_operator: boolean;
  tested_at: string | null;
  updated_at: string;
}

export function companySsoJson(sso: CompanySso): CompanySsoJson {
  return {
    company_id: sso.companyId,
    issuer: sso.issuer,
    client_id: sso.clientId,
    client_secret_set: sso.sealedClientSecret !== null,
    token_endpoint_auth_method: sso.authMethod,
    scope: sso.scope,
    claims: sso.claims,
    hosted_domain: sso.hostedDomain,
    tenant_id: sso.tenantId,
    enabled: sso.enabled,
    sso_only: sso.ssoOnly,
    registered_by_operator: sso.registeredByOperator,
    tested_at: sso.testedAt?.toISOString() ?? null,
    updated_at: sso.updatedAt.toISOString(),
  };
}

const noCompany = (companyId: string) => new CompanySsoError("not_found", `there is no company "${companyId}"`);

/** Why this company may not have this provider, checked against the company as it is. */
async function checkCompanyFits(stores: Stores, companyId: string, write: CompanySsoWrite): Promise<void> {
  const company = await stores.companies.find(companyId);
  if (!company) throw noCompany(companyId);
  if (company.kind === "operator")
    throw new CompanySsoError(
      "invalid_state",
      `company "${companyId}" is the operator: operator accounts sign in with their password and second factor only`,
    );
  for (const role of Object.values(write.claims.roles)) {
    try {
      checkRoleFits(role as Role, company.kind);
    } catch (error) {
      if (error instanceof PersonFieldError)
        throw new CompanySsoError("invalid_state", `claims.roles: ${error.message}`, "claims.roles");
      throw error;
    }
  }
}

/** Why a write names no client secret its method can use (the store's sealedSecretOf decides). */
function secretRefusal(refusal: SecretRefusal): CompanySsoError {
  if (refusal === "secret_needed")
    return new CompanySsoError(
      "invalid_state",
      "client_secret is needed: no secret is stored for this company yet",
      "client_secret",
    );
  return new CompanySsoError(
    "secret_not_kept",
    "client_secret is needed: the stored secret is kept only while issuer, client_id and token_endpoint_auth_method " +
      "stay the same, and one an operator stored only by an operator",
    "client_secret",
  );
}

/**
 * Sets the company's provider, replacing what was set (an omitted secret keeps the stored one for the same issuer,
 * client and method; omitted switches keep theirs). The test mark goes: the new settings are untested.
 */
export async function setCompanySso(
  stores: Stores,
  companyId: string,
  write: CompanySsoWrite,
  writer: SsoWriter,
): Promise<CompanySsoJson> {
  await checkCompanyFits(stores, companyId, write);
  const saved = await stores.companySso.save(companyId, write, writer);
  if (saved === "not_found") throw noCompany(companyId);
  if (typeof saved === "string") throw secretRefusal(saved);
  return companySsoJson(saved);
}

/** Why there is nothing to change: no such company, or no provider set up. */
async function missingSso(stores: Stores, companyId: string): Promise<CompanySsoError> {
  if (!(await stores.companies.exists(companyId))) return noCompany(companyId);
  return new CompanySsoError("not_found", `company "${companyId}" has no identity provider set up`);
}

export async function showCompanySso(stores: Stores, companyId: string): Promise<CompanySsoJson> {
  const sso = await stores.companySso.find(companyId);
  if (!sso) throw await missingSso(stores, companyId);
  return companySsoJson(sso);
}

/** Turns the provider on (sign-in of the verified domains goes there) or off; saying it twice changes nothing. */
export async function switchCompanySso(
  stores: Stores,
  companyId: string,
  enabled: boolean,
  by?: string,
): Promise<CompanySsoJson> {
  if ((await stores.companySso.setEnabled(companyId, enabled, by)) === "not_found")
    throw await missingSso(stores, companyId);
  return showCompanySso(stores, companyId);
}

/** Removes the provider: its people sign in with passwords again. Domains and linked accounts stay. */
export async function removeCompanySso(stores: Stores, companyId: string, by?: string): Promise<void> {
  if (!(await stores.companySso.remove(companyId, by))) throw await missingSso(stores, companyId);
}
