/**
 * The company's provider as the store keeps it (nulls, the client secret sealed) in the shape the upstream client
 * takes (lib/oauth/company-sso/company-sso-config.ts): the one place the two meet, so neither knows the other's form.
 */
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { openClientSecret } from "@/lib/store/company-sso-store";
import type { CompanySso } from "@/lib/store/models/company-sso";

const present = <T>(value: T | null): T | undefined => value ?? undefined;

export function companySsoConfigOf(sso: CompanySso, secretKey: string): CompanySsoConfig {
  const clientSecret = present(openClientSecret(sso, secretKey));
  return {
    companyId: sso.companyId,
    issuer: sso.issuer,
    clientId: sso.clientId,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    authMethod: sso.authMethod,
    scope: sso.scope,
    claims: sso.claims,
    ...(sso.hostedDomain === null ? {} : { hostedDomain: sso.hostedDomain }),
    ...(sso.tenantId === null ? {} : { tenantId: sso.tenantId }),
    registeredByOperator: sso.registeredByOperator,
  };
}
