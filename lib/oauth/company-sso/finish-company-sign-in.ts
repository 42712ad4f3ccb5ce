/**
 * The second half of a sign-in at a company's identity provider, when the person comes back to the callback: the
 * answer is checked against what was kept (same company and issuer, not too old; state; RFC 9207 `iss`, required when
 * the provider says it sends it, so that a code from another company's provider is refused), the code redeemed with
 * the PKCE verifier, and the ID token checked (signature, iss, aud, azp, nonce, exp, max_age; tenant, hosted domain).
 */
import { authorizationCodeGrant, fetchUserInfo, type Configuration, type IDToken } from "openid-client";
import { INTERACTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import { assertUsable, type CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { idTokenProblem } from "@/lib/oauth/company-sso/id-token-problem";
import { companySignInFailure } from "@/lib/oauth/company-sso/sign-in-failure";
import type { PendingCompanySignIn } from "@/lib/oauth/company-sso/start-company-sign-in";
import { upstreamProvider, type OutboundRules } from "@/lib/oauth/company-sso/upstream-provider";
import {
  lacksProfileClaims,
  upstreamIdentity,
  type CompanySignInIdentity,
} from "@/lib/oauth/company-sso/upstream-identity";

/** Why the kept sign-in cannot be finished with this registration, or null. */
function pendingProblem(config: CompanySsoConfig, pending: PendingCompanySignIn, now: number): string | null {
  if (pending.companyId !== config.companyId || pending.issuer !== config.issuer)
    return "the sign-in was started for another company or provider";
  const age = now - pending.createdAt;
  if (age < 0 || age > INTERACTION_LIFETIME_SECONDS * 1000) return "the sign-in was started too long ago";
  return null;
}

/** Userinfo's claims when the ID token lacks the profile (checked to be about the same subject), else none. */
async function userinfoClaims(
  provider: Configuration,
  config: CompanySsoConfig,
  claims: IDToken,
  accessToken: string | undefined,
): Promise<Record<string, unknown>> {
  if (!accessToken || !provider.serverMetadata().userinfo_endpoint || !lacksProfileClaims(config, claims)) return {};
  return fetchUserInfo(provider, accessToken, claims.sub);
}

async function redeem(
  config: CompanySsoConfig,
  pending: PendingCompanySignIn,
  callback: URL,
  rules: OutboundRules,
  now: number,
): Promise<CompanySignInIdentity> {
  const provider = await upstreamProvider(config, rules, now);
  // The redirect_uri sent with the code is the one of the request, whatever host the callback was reached under.
  const current = new URL(pending.redirectUri);
  current.search = callback.search;
  const tokens = await authorizationCodeGrant(provider, current, {
    pkceCodeVerifier: pending.codeVerifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    maxAge: pending.maxAge,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  const problem = idTokenProblem(config, claims);
  if (problem) throw new CompanySignInFailed("invalid_response", problem);
  return upstreamIdentity(config, claims, await userinfoClaims(provider, config, claims, tokens.access_token));
}

/**
 * The identity the provider answers for `pending` at `callback` (the URL the person came back to; only its query
 * is read). Throws CompanySignInFailed: provider_error with the provider's code (access_denied, login_required, …),
 * provider_unreachable, invalid_response, misconfigured.
 */
export async function finishCompanySignIn(
  config: CompanySsoConfig,
  pending: PendingCompanySignIn,
  callback: URL,
  rules: OutboundRules,
  now = Date.now(),
): Promise<CompanySignInIdentity> {
  assertUsable(config, rules.production);
  const problem = pendingProblem(config, pending, now);
  if (problem) throw new CompanySignInFailed("invalid_response", problem);
  try {
    return await redeem(config, pending, callback, rules, now);
  } catch (error) {
    throw companySignInFailure(error) ?? error;
  }
}
