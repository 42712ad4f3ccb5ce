/**
 * What OptiGate keeps while a person signs in at their company's provider: the pending sign-in (state, nonce, PKCE
 * verifier) and where the flow goes on afterwards. A sealed, HttpOnly, SameSite=Lax cookie (Lax: the provider sends
 * the person back with a top-level GET from its own site), for the callback's path only, good for 15 minutes.
 */
import { INTERACTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { expireCookie, isSecureOrigin, readCookie } from "@/lib/http/cookies";
import { ENDPOINTS } from "@/lib/http/paths";
import { sealedCookie, unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { PendingCompanySignIn } from "@/lib/oauth/company-sso/start-company-sign-in";

const COOKIE = "optigate_company_sign_in";
const PATH = ENDPOINTS.companySsoCallback;

export interface KeptCompanySignIn {
  pending: PendingCompanySignIn;
  /** The local path the flow continues at (an authorization request, or a portal page). */
  returnUrl: string;
  /**
   * A company administrator's "test connection" (lib/rights/company-sso-test.ts): it signs nobody in, and counts
   * only for this user and the settings written at `settingsOf` (milliseconds since the epoch).
   */
  test?: { userId: string; settingsOf: number };
}

type Keys = { secretKey: string; publicUrl: string };

export const companySignInCookie = (kept: KeptCompanySignIn, config: Keys) =>
  sealedCookie(COOKIE, kept, { ...config, path: PATH, maxAgeSeconds: INTERACTION_LIFETIME_SECONDS });

export const endCompanySignInCookie = (publicUrl: string) =>
  expireCookie(COOKIE, { secure: isSecureOrigin(publicUrl), path: PATH });

/** The kept sign-in, or undefined when the cookie is missing, forged or older than its lifetime. */
export function readCompanySignIn(
  request: Request,
  secretKey: string,
  now = Date.now(),
): KeptCompanySignIn | undefined {
  const kept = unsealedCookieValue<KeptCompanySignIn>(COOKIE, readCookie(request, COOKIE), secretKey);
  const age = kept ? now - kept.pending.createdAt : -1;
  return kept && typeof kept.returnUrl === "string" && age >= 0 && age <= INTERACTION_LIFETIME_SECONDS * 1000
    ? kept
    : undefined;
}
