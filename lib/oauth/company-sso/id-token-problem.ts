/**
 * What a company's registration asks of an ID token beyond OpenID Connect's own checks (which openid-client makes:
 * signature, iss, aud, azp, nonce, exp): that it is from the company's Entra tenant, from its Google Workspace
 * domain, and names a subject OptiGate can keep.
 */
import { MAX_SUBJECT_LENGTH } from "@/lib/config/policy";
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { tenantProblem } from "@/lib/oauth/company-sso/tenant-issuer";

/** Why the ID token's claims are not the company's, in a sentence, or null. */
export function idTokenProblem(config: CompanySsoConfig, claims: Record<string, unknown>): string | null {
  const tenant = tenantProblem(config.issuer, config.tenantId, claims);
  if (tenant) return tenant;
  // Google: hd names the Workspace domain of the account; a personal account has none.
  if (config.hostedDomain !== undefined && claims.hd !== config.hostedDomain)
    return claims.hd === undefined
      ? `the ID token has no hd, and the hosted domain is ${config.hostedDomain}`
      : `the ID token's hd ${JSON.stringify(claims.hd)} is not the hosted domain ${config.hostedDomain}`;
  if (typeof claims.sub !== "string" || claims.sub.length > MAX_SUBJECT_LENGTH)
    return `the ID token's sub is not a string of at most ${MAX_SUBJECT_LENGTH} characters`;
  return null;
}
