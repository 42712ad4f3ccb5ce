/**
 * What the operator gives a software vendor: initial access tokens for RFC 7591 registration (256 random bits, only
 * the SHA-256 kept, shown once; 30 days unless another day is given, at most a year; revocable), and the platform
 * scopes and the vendor's own APIs (RFC 8707 resources) its applications may ask for, and whether its applications
 * have a sandbox before approval.
 */
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Stores } from "@/lib/store/stores";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { scopeDefinitions } from "@/lib/oauth/scopes";
import { resourceUriProblem } from "@/lib/http/url-policy";
import { forgetClient } from "@/lib/store/client-store";

const DEFAULT_DAYS = 30;
const LONGEST_DAYS = 365;

type PartnerAccessCode = "not_a_partner" | "invalid_expiry" | "invalid_scope" | "invalid_resource" | "not_found";

export class PartnerAccessError extends OptiGateError<PartnerAccessCode> {
  constructor(
    readonly code: PartnerAccessCode,
    message: string,
  ) {
    super(message);
  }
}

async function partner(stores: Stores, companyId: string) {
  const found = await stores.partners.findPartner(companyId);
  if (!found) throw new PartnerAccessError("not_a_partner", `"${companyId}" is no software vendor company`);
  return found;
}

export async function issueInitialAccessToken(stores: Stores, companyId: string, expiresAt?: Date, now = new Date()) {
  await partner(stores, companyId);
  const expiry = expiresAt ?? new Date(now.getTime() + DEFAULT_DAYS * 86_400_000);
  if (expiry <= now || expiry.getTime() - now.getTime() > LONGEST_DAYS * 86_400_000)
    throw new PartnerAccessError("invalid_expiry", `the expiry must be within the next ${LONGEST_DAYS} days`);
  const token = generateOpaqueToken();
  const id = await stores.partners.saveInitialAccessToken({
    companyId,
    tokenHash: hashToken(token),
    expiresAt: expiry,
  });
  return { id, company: companyId, initial_access_token: token, expires_at: expiry.toISOString() };
}

export async function revokeAccessToken(stores: Stores, id: string) {
  if (!(await stores.partners.revokeInitialAccessToken(id)))
    throw new PartnerAccessError("not_found", `there is no unrevoked initial access token "${id}"`);
  return { id, status: "revoked" };
}

const platformScopes = (apiScopePrefix: string) =>
  scopeDefinitions(apiScopePrefix).filter((scope) => scope.kind === "api");

/**
 * The platform scopes there are, those the vendor's applications may ask for, and whether they have a sandbox before
 * approval; null for any other company.
 */
export async function partnerScopesOf(stores: Stores, companyId: string, apiScopePrefix: string) {
  const found = await stores.partners.findPartner(companyId);
  return found
    ? { allowed: found.partnerScopes, offered: platformScopes(apiScopePrefix), sandbox: found.sandbox }
    : null;
}

/** Sets the platform scopes the vendor's applications may ask for (the OpenID scopes they may always). */
export async function setPartnerScopes(stores: Stores, companyId: string, scopes: string[], apiScopePrefix: string) {
  await partner(stores, companyId);
  const platform = platformScopes(apiScopePrefix).map((scope) => scope.name);
  const unknown = scopes.filter((scope) => !platform.includes(scope));
  if (unknown.length > 0)
    throw new PartnerAccessError(
      "invalid_scope",
      `${unknown.map((scope) => `"${scope}"`).join(", ")} is no platform scope (${platform.join(" ")})`,
    );
  await stores.partners.savePartnerAllowance(companyId, "partnerScopes", [...new Set(scopes)]);
  return { company: companyId, partner_scopes: [...new Set(scopes)] };
}

/**
 * Sets the vendor's own APIs its applications may name as `allowed_resources` (RFC 8707): each must be one the vendor
 * serves, which the operator vouches for, as no token for another's API may go to it.
 */
export async function setPartnerResources(stores: Stores, companyId: string, resources: string[]) {
  await partner(stores, companyId);
  for (const resource of resources) {
    const problem = resourceUriProblem(resource);
    if (problem) throw new PartnerAccessError("invalid_resource", `"${resource}" ${problem}`);
  }
  const unique = [...new Set(resources)];
  await stores.partners.savePartnerAllowance(companyId, "partnerResources", unique);
  return { company: companyId, partner_resources: unique };
}

/**
 * Whether the vendor's applications waiting for approval may sign in the vendor's own people (the sandbox,
 * lib/store/models/sandbox-client.ts); turned off, they exist for the operator only until approved.
 */
export async function setPartnerSandbox(stores: Stores, companyId: string, allowed: boolean) {
  await partner(stores, companyId);
  await stores.partners.savePartnerSandbox(companyId, allowed);
  forgetClient();
  return { company: companyId, partner_sandbox: allowed };
}
