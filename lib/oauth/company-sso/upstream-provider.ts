/**
 * A company's identity provider as openid-client's Configuration: its discovery document fetched through OptiGate's
 * outbound rules (every later request too: keys, token, userinfo), the issuer checked to be exactly the one
 * registered, the client's authentication, and ID token signatures checked against the provider's keys. An
 * operator's registration may reach OUTBOUND_ALLOW's ranges; a company administrator's only public addresses,
 * whatever OUTBOUND_ALLOW says, so that a company cannot make OptiGate call into the internal network. Each
 * Configuration is kept a few minutes per process, with the keys it fetched; a changed registration or rule is
 * another entry, and a failed discovery is not kept.
 */
import { createHash } from "node:crypto";
import {
  allowInsecureRequests,
  ClientSecretBasic,
  ClientSecretPost,
  clockTolerance,
  Configuration,
  customFetch,
  discovery,
  enableNonRepudiationChecks,
  None,
  PrivateKeyJwt,
  type ClientAuth,
} from "openid-client";
import { NO_ADDRESS_RANGES, type AddressRanges } from "@/lib/config/address-ranges";
import {
  CLOCK_LEEWAY_SECONDS,
  COMPANY_SSO_DISCOVERY_CACHE_SECONDS,
  COMPANY_SSO_FETCH_TIMEOUT_MS,
  MAX_COMPANY_SSO_ANSWER_BYTES,
} from "@/lib/config/policy";
import { outboundFetch } from "@/lib/http/outbound-fetch";
import { processCache } from "@/lib/observability/process-cache";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { discoveryUrl, issuerForTenant } from "@/lib/oauth/company-sso/tenant-issuer";

/** The deployment's outbound rules (Config's fields of the same names). */
export interface OutboundRules {
  production: boolean;
  outboundAllow: AddressRanges;
}

interface Entry {
  expiresAt: number;
  configuration: Promise<Configuration>;
}

const cache = processCache("companySsoProviders", () => new Map<string, Entry>());

/** Everything the Configuration depends on; hashed, so that no secret is kept as a key. */
function entryKey(config: CompanySsoConfig, rules: OutboundRules): string {
  const { issuer, tenantId, clientId, clientSecret, authMethod, clientKey, registeredByOperator } = config;
  const parts = [issuer, tenantId, clientId, clientSecret, authMethod, clientKey?.kid, registeredByOperator];
  return createHash("sha256")
    .update(JSON.stringify([...parts, rules.production, rules.outboundAllow.entries]))
    .digest("base64url");
}

function clientAuthentication(config: CompanySsoConfig): ClientAuth {
  if (config.authMethod === "private_key_jwt" && config.clientKey) return PrivateKeyJwt(config.clientKey);
  if (config.clientSecret === undefined) return None();
  const method = config.authMethod === "client_secret_post" ? ClientSecretPost : ClientSecretBasic;
  return method(config.clientSecret);
}

async function discover(config: CompanySsoConfig, rules: OutboundRules): Promise<Configuration> {
  const fetch = outboundFetch({
    production: rules.production,
    allowed: config.registeredByOperator ? rules.outboundAllow : NO_ADDRESS_RANGES,
    timeoutMs: COMPANY_SSO_FETCH_TIMEOUT_MS,
    maxBytes: MAX_COMPANY_SSO_ANSWER_BYTES,
  });
  const location = new URL(discoveryUrl(config.issuer));
  // openid-client wants https; the outbound fetch allows http only on a loopback host outside production.
  const execute = location.protocol === "http:" ? [allowInsecureRequests] : [];
  const options = { [customFetch]: fetch, timeout: COMPANY_SSO_FETCH_TIMEOUT_MS / 1000, execute };
  // Given the document's own URL, openid-client leaves the issuer to be compared here, exactly and for templates too.
  const discovered = await discovery(location, config.clientId, undefined, undefined, options);
  // supportsPKCE is openid-client's helper, not metadata.
  const { issuer, supportsPKCE: _helper, ...metadata } = discovered.serverMetadata();
  if (issuer !== config.issuer)
    throw new CompanySignInFailed("invalid_response", `the provider's issuer is ${issuer}, not ${config.issuer}`);
  // ID tokens and the RFC 9207 iss parameter name the company's tenant, not the template.
  const server = { ...metadata, issuer: issuerForTenant(issuer, config.tenantId ?? "") };
  const client = { [clockTolerance]: CLOCK_LEEWAY_SECONDS };
  const configuration = new Configuration(server, config.clientId, client, clientAuthentication(config));
  configuration[customFetch] = fetch;
  configuration.timeout = options.timeout;
  execute.forEach((extension) => extension(configuration));
  // openid-client trusts TLS for an ID token from the token endpoint (Core §3.1.3.7); the signature is checked too.
  enableNonRepudiationChecks(configuration);
  return configuration;
}

/** The provider's Configuration, discovered or kept; rejects as discovery() does, or with CompanySignInFailed. */
export function upstreamProvider(
  config: CompanySsoConfig,
  rules: OutboundRules,
  now = Date.now(),
): Promise<Configuration> {
  const key = entryKey(config, rules);
  const kept = cache.get(key);
  if (kept && kept.expiresAt > now) return kept.configuration;
  for (const [other, entry] of cache) if (entry.expiresAt <= now) cache.delete(other);
  const entry = { expiresAt: now + COMPANY_SSO_DISCOVERY_CACHE_SECONDS * 1000, configuration: discover(config, rules) };
  cache.set(key, entry);
  entry.configuration.catch(() => cache.get(key) === entry && cache.delete(key));
  return entry.configuration;
}
