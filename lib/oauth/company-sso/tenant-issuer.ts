/**
 * Multi-tenant issuers, as Microsoft Entra ID publishes them: the discovery document of its `organizations` endpoint
 * names the issuer `https://login.microsoftonline.com/{tenantid}/v2.0`, and each ID token the concrete issuer of the
 * signed-in person's tenant (its `tid` claim in place of `{tenantid}`). A company registers the template with its own
 * tenant id; a token is its only if `tid` is that tenant and `iss` the template filled with `tid`.
 */
import { ENDPOINTS } from "@/lib/http/paths";

export const TENANT_PLACEHOLDER = "{tenantid}";

/** Entra ID's endpoint for work and school accounts of any tenant, whose metadata names the template issuer. */
const MULTI_TENANT_SEGMENT = "organizations";

export function isIssuerTemplate(issuer: string): boolean {
  return issuer.includes(TENANT_PLACEHOLDER);
}

/** The issuer with the tenant in place of `{tenantid}` (an issuer without the placeholder as it is). */
export function issuerForTenant(issuer: string, tenantId: string): string {
  return issuer.replace(TENANT_PLACEHOLDER, tenantId);
}

/** Where the issuer's metadata is (OpenID Connect Discovery 1.0 §4.1); a template's at the multi-tenant endpoint. */
export function discoveryUrl(issuer: string): string {
  return `${issuerForTenant(issuer, MULTI_TENANT_SEGMENT).replace(/\/$/, "")}${ENDPOINTS.discovery}`;
}

/**
 * Why the ID token's `iss` and `tid` are not those of the company's tenant, or null. `tenantId` (required for a
 * template) is checked against `tid` for any issuer that has one.
 */
export function tenantProblem(
  issuer: string,
  tenantId: string | undefined,
  claims: { iss?: unknown; tid?: unknown },
): string | null {
  if (tenantId === undefined) return null;
  if (claims.tid !== tenantId) return `the ID token's tid ${JSON.stringify(claims.tid)} is not the tenant ${tenantId}`;
  if (isIssuerTemplate(issuer) && claims.iss !== issuerForTenant(issuer, tenantId))
    return `the ID token's iss ${JSON.stringify(claims.iss)} is not ${issuerForTenant(issuer, tenantId)}`;
  return null;
}
