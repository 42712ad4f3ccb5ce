/**
 * Loads the demo data set (identity part here, catalogs in load-demo-catalogs.ts). Idempotent: whatever already
 * exists (matched by company id, user email and client id) is left exactly as it is, so loading twice changes nothing.
 */
import {
  demoClients,
  demoCompanies,
  demoCompanySso,
  demoInvitation,
  demoPartnerApplication,
  demoUsers,
} from "@/prisma/demo-data";
import { setCompanySso } from "@/lib/admin/company-sso-registry";
import { addCompanyDomain } from "@/lib/admin/company-domains";
import { STANDARD_CLAIMS } from "@/lib/store/models/company-sso";
import { registerPartnerApplication } from "@/lib/admin/partner-applications";
import { setPartnerScopes } from "@/lib/admin/partner-access";
import { invitePerson } from "@/lib/admin/invitations";
import type { Config } from "@/lib/config";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { loadDemoCatalogs } from "@/lib/setup/load-demo-catalogs";
import { registerClient } from "@/lib/admin/client-registry";
import { hashPassword } from "@/lib/crypto/password";
import type { Stores } from "@/lib/store/stores";

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
async function loadDemoPartnerApplication(stores: Stores, config: DemoConfig): Promise<string[]> {
  const { companyId, partnerScopes, metadata } = demoPartnerApplication(config.apiScopePrefix);
  const created = await createOnce(
    () => stores.clientRegistry.exists(metadata.client_id),
    async () => {
      await setPartnerScopes(stores, companyId, partnerScopes, config.apiScopePrefix);
      const partner = { id: companyId, partnerScopes, partnerResources: [], sandbox: true };
      await registerPartnerApplication({ stores, config }, partner, metadata);
    },
  );
  return created ? [`pending application ${metadata.client_id}`] : [];
}

/** The pending invitation, unless its person was invited or joined already. */
async function loadDemoInvitation(stores: Stores, config: DemoConfig): Promise<string[]> {
  const { email, companyId, role, language, invitedBy } = demoInvitation;
  const created = await createOnce(
    async () =>
      Boolean(await stores.users.findIdByEmail(email)) || (await stores.invitations.listPending({ email })).length > 0,
    async () => {
      const inviter = await stores.users.findByEmail(invitedBy);
      await invitePerson(
        { stores, config },
        { email, companyId, role, language },
        inviter ? { userId: inviter.id, name: `${inviter.givenName} ${inviter.familyName}` } : undefined,
      );
    },
  );
  return created ? [`invitation ${email}`] : [];
}

/** Optik Nord signs in at the demo's local provider; the operator vouches for its domain. */
async function loadDemoCompanySso(stores: Stores, config: DemoConfig): Promise<string[]> {
  const { companyId, domain, issuer, clientId, clientSecret } = demoCompanySso;
  if (await stores.companySso.find(companyId)) return [];
  await setCompanySso(
    stores,
    companyId,
    {
      issuer,
      clientId,
      clientSecret,
      authMethod: "client_secret_basic",
      scope: "openid email profile",
      claims: STANDARD_CLAIMS,
      hostedDomain: null,
      tenantId: null,
      enabled: true,
    },
    { secretKey: config.secretKey, byOperator: true },
  );
  await addCompanyDomain(stores, companyId, domain, { byOperator: true, verified: true });
  return [`company sign-in of ${domain}`];
}

export async function loadDemoData(stores: Stores, config: DemoConfig): Promise<DemoDataResult> {
  const { apiScopePrefix } = config;
  const created: string[] = [];
  for (const company of demoCompanies) {
    if (await stores.companies.exists(company.id)) continue;
    await stores.companies.save(company);
    created.push(`company ${company.name}`);
  }
  for (const { password, ...user } of demoUsers) {
    if (await stores.users.findIdByEmail(user.email)) continue;
    await stores.users.save({ ...user, emailVerified: true, passwordHash: await hashPassword(password) });
    created.push(`user ${user.email}`);
  }
  for (const { metadata, secret } of demoClients(apiScopePrefix)) {
    const registration = parseClientMetadata(metadata, apiScopePrefix);
    if (await stores.clientRegistry.exists(registration.id!)) continue;
    await registerClient(stores, registration, { value: secret, description: "demo secret" });
    created.push(`client ${registration.id}`);
  }
  created.push(...(await loadDemoInvitation(stores, config)));
  created.push(...(await loadDemoPartnerApplication(stores, config)));
  created.push(...(await loadDemoCatalogs(stores)));
  created.push(...(await loadDemoCompanySso(stores, config)));
  return { created };
}
