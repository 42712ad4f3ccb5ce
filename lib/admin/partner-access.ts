/**
 * What the operator gives a software vendor: initial access tokens for RFC 7591 registration (256 random bits, only
 * the SHA-256 kept, shown once; 30 days unless another day is given, at most a year; revocable), and the platform
 * scopes the vendor's applications may ask for.
 */
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { scopeDefinitions } from "@/lib/oauth/scopes";
import {
  findPartner,
  revokeInitialAccessToken,
  storeInitialAccessToken,
  storePartnerScopes,
} from "@/lib/store/partner-store";

const DEFAULT_DAYS = 30;
const LONGEST_DAYS = 365;

export class PartnerAccessError extends OptiGateError<
  "not_a_partner" | "invalid_expiry" | "invalid_scope" | "not_found"
> {
  constructor(
    readonly code: "not_a_partner" | "invalid_expiry" | "invalid_scope" | "not_found",
    message: string,
  ) {
    super(message);
  }
}

async function partner(db: Db, companyId: string) {
  const found = await findPartner(db, companyId);
  if (!found) throw new PartnerAccessError("not_a_partner", `"${companyId}" is no software vendor company`);
  return found;
}

export async function issueInitialAccessToken(db: Db, companyId: string, expiresAt?: Date, now = new Date()) {
  await partner(db, companyId);
  const expiry = expiresAt ?? new Date(now.getTime() + DEFAULT_DAYS * 86_400_000);
  if (expiry <= now || expiry.getTime() - now.getTime() > LONGEST_DAYS * 86_400_000)
    throw new PartnerAccessError("invalid_expiry", `the expiry must be within the next ${LONGEST_DAYS} days`);
  const token = generateOpaqueToken();
  const id = await storeInitialAccessToken(db, { companyId, tokenHash: hashToken(token), expiresAt: expiry });
  return { id, company: companyId, initial_access_token: token, expires_at: expiry.toISOString() };
}

export async function revokeAccessToken(db: Db, id: string) {
  if (!(await revokeInitialAccessToken(db, id)))
    throw new PartnerAccessError("not_found", `there is no unrevoked initial access token "${id}"`);
  return { id, status: "revoked" };
}

const platformScopes = (apiScopePrefix: string) =>
  scopeDefinitions(apiScopePrefix).filter((scope) => scope.kind === "api");

/** The platform scopes there are, and those the vendor's applications may ask for; null for any other company. */
export async function partnerScopesOf(db: Db, companyId: string, apiScopePrefix: string) {
  const found = await findPartner(db, companyId);
  return found ? { allowed: found.partnerScopes, offered: platformScopes(apiScopePrefix) } : null;
}

/** Sets the platform scopes the vendor's applications may ask for (the OpenID scopes they may always). */
export async function setPartnerScopes(db: Db, companyId: string, scopes: string[], apiScopePrefix: string) {
  await partner(db, companyId);
  const platform = platformScopes(apiScopePrefix).map((scope) => scope.name);
  const unknown = scopes.filter((scope) => !platform.includes(scope));
  if (unknown.length > 0)
    throw new PartnerAccessError(
      "invalid_scope",
      `${unknown.map((scope) => `"${scope}"`).join(", ")} is no platform scope (${platform.join(" ")})`,
    );
  await storePartnerScopes(db, companyId, [...new Set(scopes)]);
  return { company: companyId, partner_scopes: [...new Set(scopes)] };
}
