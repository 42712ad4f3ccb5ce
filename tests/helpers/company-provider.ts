/**
 * A company's identity provider registered the way an operator does it (`companies sso set`, then
 * `companies domains add --verified`), for the company sign-in tests: turned on, with the standard claims unless a
 * test maps others, and one verified domain.
 */
import { addCompanyDomain } from "@/lib/admin/company-domains";
import { setCompanySso } from "@/lib/admin/company-sso-registry";
import { getServiceContext } from "@/lib/service-context";
import { STANDARD_CLAIMS, type CompanySsoWrite, type SsoAuthMethod } from "@/lib/store/models/company-sso";

export interface ProviderRegistration {
  issuer: string;
  domain: string;
  clientId: string;
  /** Absent with private_key_jwt. */
  clientSecret?: string;
  authMethod?: SsoAuthMethod;
  claims?: CompanySsoWrite["claims"];
}

export async function registerCompanyProvider(companyId: string, provider: ProviderRegistration): Promise<void> {
  const { stores, config } = getServiceContext();
  const { issuer, domain, clientId, clientSecret, authMethod = "client_secret_basic", claims } = provider;
  await setCompanySso(
    stores,
    companyId,
    {
      issuer,
      clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
      authMethod,
      scope: "openid email profile",
      claims: claims ?? STANDARD_CLAIMS,
      hostedDomain: null,
      tenantId: null,
      enabled: true,
    },
    { secretKey: config.secretKey, byOperator: true },
  );
  await addCompanyDomain(stores, companyId, domain, { byOperator: true, verified: true });
}
