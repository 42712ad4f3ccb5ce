/**
 * What the operator gives a software vendor, as stored: initial access tokens for RFC 7591 registration (only their
 * SHA-256 kept), and on the vendor's company the platform scopes and own APIs (RFC 8707 resources) its applications
 * may ask for and whether its applications waiting for approval have a sandbox.
 */
import type { Db } from "@/lib/db/prisma";
import type { AllowanceField, VendorAllowance } from "@/lib/store/models/client";

type VendorRow = { id: string; partnerScopes: string; partnerResources: string; partnerSandbox: boolean };

const allowanceOf = (company: VendorRow): VendorAllowance => ({
  id: company.id,
  partnerScopes: JSON.parse(company.partnerScopes) as string[],
  partnerResources: JSON.parse(company.partnerResources) as string[],
  sandbox: company.partnerSandbox,
});

export async function storeInitialAccessToken(
  db: Db,
  token: { companyId: string; tokenHash: string; expiresAt: Date },
): Promise<string> {
  return (await db.initialAccessToken.create({ data: token, select: { id: true } })).id;
}

/** The vendor company of a current (unrevoked, unexpired) initial access token, if it is active. */
export async function findInitialAccessTokenCompany(
  db: Db,
  tokenHash: string,
  now = new Date(),
): Promise<VendorAllowance | null> {
  const token = await db.initialAccessToken.findUnique({ where: { tokenHash } });
  if (!token || token.revokedAt || token.expiresAt <= now) return null;
  const company = await db.company.findUnique({ where: { id: token.companyId } });
  return company?.active && company.kind === "software_vendor" ? allowanceOf(company) : null;
}

/** Revokes an initial access token by id; false when there is no such unrevoked token. */
export async function revokeInitialAccessToken(db: Db, id: string, now = new Date()): Promise<boolean> {
  return (
    (await db.initialAccessToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } })).count === 1
  );
}

export async function storePartnerAllowance(db: Db, companyId: string, field: AllowanceField, values: string[]) {
  const data = { [field]: JSON.stringify(values) };
  const updated = await db.company.updateMany({ where: { id: companyId, kind: "software_vendor" }, data });
  return updated.count === 1;
}

export async function storePartnerSandbox(db: Db, companyId: string, allowed: boolean) {
  const updated = await db.company.updateMany({
    where: { id: companyId, kind: "software_vendor" },
    data: { partnerSandbox: allowed },
  });
  return updated.count === 1;
}

/** A software vendor with what its applications may ask for; null for any other company or none. */
export async function findPartner(db: Db, companyId: string): Promise<(VendorAllowance & { active: boolean }) | null> {
  const company = await db.company.findUnique({ where: { id: companyId } });
  if (!company || company.kind !== "software_vendor") return null;
  return { ...allowanceOf(company), active: company.active };
}
