/**
 * Loads the demo data set (identity part here, catalogs in load-demo-catalogs.ts). Idempotent: whatever already
 * exists (matched by company id, user email and client id) is left exactly as it is, so loading twice changes nothing.
 */
import { demoClients, demoCompanies, demoInvitation, demoPartnerApplication, demoUsers } from "@/prisma/demo-data";
import { prismaStores } from "@/lib/store/stores";
import { registerPartnerApplication } from "@/lib/admin/partner-applications";
import { setPartnerScopes } from "@/lib/admin/partner-access";
import { invitePerson } from "@/lib/admin/invitations";
import type { Config } from "@/lib/config";
import { listPendingInvitations } from "@/lib/store/invitation-store";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { loadDemoCatalogs } from "@/lib/setup/load-demo-catalogs";
import { registerClient } from "@/lib/admin/client-registry";
import { hashPassword } from "@/lib/crypto/password";
import type { Db } from "@/lib/db/prisma";
import { clientExists } from "@/lib/store/client-registry-store";
import { companyExists, storeCompany } from "@/lib/store/company-store";
import { findUserIdByEmail } from "@/lib/store/user-store";

export interface DemoDataResult {
  created: string[];
}

type DemoConfig = Pick<Config, "apiScopePrefix" | "publicUrl" | "secretKey">;

/**
 * Writes what `exists` finds missing. Another process preparing the same database may write it between the check and
 * the write; its row then stands, and this one writes nothing.
 */
async function createOnce(exists: () => Promise<boolean>, write: () => Promise<unknown>): Promise<boolean> {
  if (await exists()) return false;
  try {
    await write();
    return true;
  } catch (error) {
    if (await exists()) return false;
    throw error;
  }
}

/** The vendor's scope allowance and its application waiting for approval, unless the application exists already. */
async function loadDemoPartnerApplication(db: Db, config: DemoConfig): Promise<string[]> {
  const { companyId, partnerScopes, metadata } = demoPartnerApplication(config.apiScopePrefix);
  const created = await createOnce(
    () => clientExists(db, metadata.client_id),
    async () => {
      await setPartnerScopes(db, companyId, partnerScopes, config.apiScopePrefix);
      await registerPartnerApplication({ db, config }, { id: companyId, partnerScopes }, metadata);
    },
  );
  return created ? [`pending application ${metadata.client_id}`] : [];
}

/** The pending invitation, unless its person was invited or joined already. */
async function loadDemoInvitation(db: Db, config: DemoConfig): Promise<string[]> {
  const { email, companyId, role, language, invitedBy } = demoInvitation;
  const created = await createOnce(
    async () => Boolean(await findUserIdByEmail(db, email)) || (await listPendingInvitations(db, { email })).length > 0,
    async () => {
      const inviter = await prismaStores(db).users.findByEmail(invitedBy);
      await invitePerson(
        { db, stores: prismaStores(db), config },
        { email, companyId, role, language },
        inviter ? { userId: inviter.id, name: `${inviter.givenName} ${inviter.familyName}` } : undefined,
      );
    },
  );
  return created ? [`invitation ${email}`] : [];
}

export async function loadDemoData(db: Db, config: DemoConfig): Promise<DemoDataResult> {
  const { apiScopePrefix } = config;
  const created: string[] = [];
  for (const company of demoCompanies) {
    if (await companyExists(db, company.id)) continue;
    await storeCompany(db, company);
    created.push(`company ${company.name}`);
  }
  for (const { password, ...user } of demoUsers) {
    if (await findUserIdByEmail(db, user.email)) continue;
    await prismaStores(db).users.save({ ...user, emailVerified: true, passwordHash: await hashPassword(password) });
    created.push(`user ${user.email}`);
  }
  for (const { metadata, secret } of demoClients(apiScopePrefix)) {
    const registration = parseClientMetadata(metadata, apiScopePrefix);
    if (await clientExists(db, registration.id!)) continue;
    await registerClient(db, registration, { value: secret, description: "demo secret" });
    created.push(`client ${registration.id}`);
  }
  created.push(...(await loadDemoInvitation(db, config)));
  created.push(...(await loadDemoPartnerApplication(db, config)));
  created.push(...(await loadDemoCatalogs(db)));
  return { created };
}
