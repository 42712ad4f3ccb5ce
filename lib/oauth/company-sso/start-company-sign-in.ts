/**
 * The first half of a sign-in at a company's identity provider: the authorization request (code flow with PKCE S256,
 * state and nonce; login_hint, ui_locales, prompt and max_age passed on; Google's `hd` when the company names its
 * hosted domain) and what the caller keeps until the provider sends the person back (a sealed cookie or a row): the
 * secrets that bind the answer to this request, and which company and issuer it was made for.
 */
import {
  buildAuthorizationUrl,
  calculatePKCECodeChallenge,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from "openid-client";
import { assertUsable, type CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { companySignInFailure } from "@/lib/oauth/company-sso/sign-in-failure";
import { upstreamProvider, type OutboundRules } from "@/lib/oauth/company-sso/upstream-provider";

export interface CompanySignInOptions {
  /** OptiGate's callback, `${PUBLIC_URL}/login/sso/callback`, as registered at the provider. */
  redirectUri: string;
  loginHint?: string;
  /** Space-separated language tags, as the relying party asked for them. */
  uiLocales?: string;
  /** `login` to make the person authenticate again, `none` to check a session silently, … */
  prompt?: string;
  /** Seconds: the provider must have authenticated the person this recently (auth_time is then checked). */
  maxAge?: number;
}

/** What the caller keeps between the two halves; nothing in it may reach the browser unsealed. */
export interface PendingCompanySignIn {
  companyId: string;
  /** The registered issuer (a template for Entra multi-tenant). */
  issuer: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  maxAge?: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

function authorizationParameters(config: CompanySsoConfig, options: CompanySignInOptions): Record<string, string> {
  const optional = {
    login_hint: options.loginHint,
    ui_locales: options.uiLocales,
    prompt: options.prompt,
    max_age: options.maxAge?.toString(),
    hd: config.hostedDomain,
  };
  return Object.fromEntries(Object.entries(optional).filter((entry): entry is [string, string] => !!entry[1]));
}

/** The URL to send the person to and what to keep; throws CompanySignInFailed (misconfigured, unreachable, …). */
export async function startCompanySignIn(
  config: CompanySsoConfig,
  options: CompanySignInOptions,
  rules: OutboundRules,
  now = Date.now(),
): Promise<{ authorizationUrl: string; pending: PendingCompanySignIn }> {
  assertUsable(config, rules.production);
  const pending: PendingCompanySignIn = {
    companyId: config.companyId,
    issuer: config.issuer,
    state: randomState(),
    nonce: randomNonce(),
    codeVerifier: randomPKCECodeVerifier(),
    redirectUri: options.redirectUri,
    ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
    createdAt: now,
  };
  try {
    const url = buildAuthorizationUrl(await upstreamProvider(config, rules, now), {
      response_type: "code",
      redirect_uri: pending.redirectUri,
      scope: config.scope,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: "S256",
      ...authorizationParameters(config, options),
    });
    return { authorizationUrl: url.href, pending };
  } catch (error) {
    throw companySignInFailure(error) ?? error;
  }
}
