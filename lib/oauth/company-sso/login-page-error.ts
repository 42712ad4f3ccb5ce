/**
 * What the login page says when a company's sign-in failed (its ERRORS list): the provider could not be reached,
 * the person declined or was refused there, or OptiGate refused the answer (or a configuration it cannot use). The
 * details go to the log, never to the page.
 */
import type { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";

export type CompanySignInPageError = "sso_unreachable" | "sso_denied" | "sso_refused";

export function loginPageErrorOf(failure: CompanySignInFailed): CompanySignInPageError {
  if (failure.code === "provider_unreachable") return "sso_unreachable";
  // access_denied: the person cancelled, or the provider's own policy refused them (deactivated there).
  if (failure.code === "provider_error" && failure.upstreamError === "access_denied") return "sso_denied";
  return "sso_refused";
}
