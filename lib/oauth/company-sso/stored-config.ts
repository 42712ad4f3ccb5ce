/**
 * The company's provider as the store keeps it (nulls, the client secret sealed) in the shape the upstream client
 * takes (lib/oauth/company-sso/company-sso-config.ts): the one place the two meet, so neither knows the other's form.
 * For private_key_jwt, OptiGate's active RS256 key signs the client assertion: the provider reads it from OptiGate's
 * JWKS, which keeps a rotated key published until it is no longer used.
 */
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { signingKeyFor } from "@/lib/oauth/keys/signing-keys";
import { openClientSecret } from "@/lib/store/company-sso-store";
import type { CompanySso } from "@/lib/store/models/company-sso";
import type { SigningKeyStore } from "@/lib/store/signing-key-store";

const present = <T>(value: T | null): T | undefined => value ?? undefined;
const CLIENT_ASSERTION_KEY = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };

async function clientKeyOf(keys: SigningKeyStore, secretKey: string) {
  const { kid, privateKey } = await signingKeyFor(keys, secretKey, "RS256");
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" });
  return { kid, key: await crypto.subtle.importKey("pkcs8", pkcs8, CLIENT_ASSERTION_KEY, false, ["sign"]) };
}

export async function companySsoConfigOf(
  sso: CompanySso,
  { config, stores }: { config: { secretKey: string }; stores: { signingKeys: SigningKeyStore } },
): Promise<CompanySsoConfig> {
  const clientSecret = present(openClientSecret(sso, config.secretKey));
  const usesKey = sso.authMethod === "private_key_jwt";
  return {
    companyId: sso.companyId,
    issuer: sso.issuer,
    clientId: sso.clientId,
    ...(clientSecret === undefined || usesKey ? {} : { clientSecret }),
    authMethod: sso.authMethod,
    ...(usesKey ? { clientKey: await clientKeyOf(stores.signingKeys, config.secretKey) } : {}),
    scope: sso.scope,
    claims: sso.claims,
    ...(sso.hostedDomain === null ? {} : { hostedDomain: sso.hostedDomain }),
    ...(sso.tenantId === null ? {} : { tenantId: sso.tenantId }),
    registeredByOperator: sso.registeredByOperator,
  };
}
