/**
 * A back-channel logout token from a company's provider (OpenID Connect Back-Channel Logout 1.0 §2.6), verified as
 * its ID tokens are: signed by a key of the provider's set with one of the ID token algorithms it publishes (never
 * `none`, never a shared secret), the keys fetched through its discovered Configuration and so under the
 * registration's outbound rules (upstream-provider.ts); `iss` the issuer of its ID tokens (the company's tenant's for
 * an Entra template), `aud` OptiGate's client id there, `exp` when present; then the logout's own claims
 * (logout-token-claims.ts). Every refusal is an invalid_request whose description the provider may read.
 */
import { createRemoteJWKSet, customFetch as joseFetch, decodeJwt, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { customFetch, type Configuration } from "openid-client";
import { CLOCK_LEEWAY_SECONDS, COMPANY_SSO_FETCH_TIMEOUT_MS, MAX_JWT_LENGTH } from "@/lib/config/policy";
import { OAuthError } from "@/lib/errors/oauth-error";
import { assertUsable, type CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import {
  logoutClaimsProblem,
  upstreamLogoutOf,
  type UpstreamLogout,
} from "@/lib/oauth/company-sso/logout-token-claims";
import { companySignInFailure } from "@/lib/oauth/company-sso/sign-in-failure";
import { upstreamProvider, type OutboundRules } from "@/lib/oauth/company-sso/upstream-provider";

/** A logout token refused: why, for the provider, and what else happened, for the log only. */
export const logoutTokenRefused = (description: string, detail?: string) =>
  new OAuthError("invalid_request", `the logout token was refused: ${description}`, 400, detail);

/** The provider's key set as jose fetches it, with the Configuration's outbound fetch; kept as long as it is. */
const keySets = new WeakMap<Configuration, JWTVerifyGetKey>();

function keySetOf(provider: Configuration): JWTVerifyGetKey {
  const kept = keySets.get(provider);
  if (kept) return kept;
  const { jwks_uri } = provider.serverMetadata();
  if (!jwks_uri) throw logoutTokenRefused("the provider publishes no jwks_uri");
  const fetch = provider[customFetch]!;
  const keys = createRemoteJWKSet(new URL(jwks_uri), {
    timeoutDuration: COMPANY_SSO_FETCH_TIMEOUT_MS,
    [joseFetch]: (url, { headers, signal }) =>
      fetch(url, { method: "GET", headers: Object.fromEntries(headers), body: undefined, redirect: "manual", signal }),
  });
  keySets.set(provider, keys);
  return keys;
}

/** The ID token algorithms the provider publishes (RS256 when it names none), without `none` and shared secrets. */
function algorithmsOf(provider: Configuration): string[] {
  const published = provider.serverMetadata().id_token_signing_alg_values_supported ?? ["RS256"];
  return published.filter((alg) => alg !== "none" && !alg.startsWith("HS"));
}

function unverifiedClaims(jwt: string) {
  try {
    return jwt.length <= MAX_JWT_LENGTH ? decodeJwt(jwt) : undefined;
  } catch {
    return undefined;
  }
}

/** The issuer and audiences the token names, unverified: only to find the providers that may have sent it. */
export function logoutTokenAddressee(jwt: string): { issuer: string; audience: string[] } {
  const claims = unverifiedClaims(jwt);
  if (!claims) throw logoutTokenRefused(`it is not a JWT of at most ${MAX_JWT_LENGTH} characters`);
  if (typeof claims.iss !== "string") throw logoutTokenRefused("it names no issuer");
  return { issuer: claims.iss, audience: [claims.aud ?? []].flat() };
}

/** What went wrong as the refusal to answer; a failure that is not about the token or the provider goes on. */
function refusalOf(error: unknown): unknown {
  if (error instanceof OAuthError) return error;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return logoutTokenRefused("the provider's keys cannot be had just now", error.message);
  if (error instanceof errors.JOSEError) return logoutTokenRefused(error.message);
  const failure = companySignInFailure(error);
  return failure
    ? logoutTokenRefused("the provider's metadata or keys cannot be had just now", failure.message)
    : error;
}

/** The logout the token asks for, verified with the keys of the provider `config` registers; or invalid_request. */
export async function verifyLogoutToken(
  config: CompanySsoConfig,
  jwt: string,
  rules: OutboundRules,
  now = Date.now(),
): Promise<UpstreamLogout> {
  try {
    assertUsable(config, rules.production);
    const provider = await upstreamProvider(config, rules, now);
    const { payload } = await jwtVerify(jwt, keySetOf(provider), {
      issuer: provider.serverMetadata().issuer,
      audience: config.clientId,
      algorithms: algorithmsOf(provider),
      clockTolerance: CLOCK_LEEWAY_SECONDS,
      currentDate: new Date(now),
    });
    const problem = logoutClaimsProblem(payload, Math.floor(now / 1000));
    if (problem) throw logoutTokenRefused(problem);
    return upstreamLogoutOf(payload);
  } catch (error) {
    throw refusalOf(error);
  }
}
