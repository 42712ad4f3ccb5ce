/**
 * GET /login/sso/start?returnUrl=…: the login page sends the browser here when the authorization request behind it
 * names a company domain in `idp_hint`, so that the relying party's user skips the question for their address. A
 * domain with company sign-in goes on to the provider; any other, or a hint that is no domain, gets the login page.
 */
import { safeLocalPath } from "@/lib/http/local-path";
import { DomainNameError, normalizeDomain } from "@/lib/http/domain-name";
import { PAGES } from "@/lib/http/paths";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { authorizeParametersOf } from "@/lib/oauth/authorize/return-url";
import { companySignInStep } from "@/lib/forms/company-sign-in-step";
import type { ServiceContext } from "@/lib/service-context";

/** The domain an authorization request's idp_hint names, or undefined. */
function hintedDomain(returnUrl: string): string | undefined {
  const hint = authorizeParametersOf(returnUrl)?.get("idp_hint");
  if (!hint) return undefined;
  try {
    return normalizeDomain(hint);
  } catch (error) {
    if (error instanceof DomainNameError) return undefined;
    throw error;
  }
}

export async function handleCompanySsoStart(request: Request, context: ServiceContext): Promise<Response> {
  const returnUrl = safeLocalPath(new URL(request.url).searchParams.get("returnUrl")) ?? "/";
  const login = (extra: Record<string, string> = {}) =>
    seeOther(pageUrl(PAGES.login, { returnUrl, hinted: "1", ...extra }));
  const domain = hintedDomain(returnUrl);
  if (!domain) return login();
  const next = await companySignInStep(request, context, { domain }, returnUrl);
  if (next.ok) return seeOther(next.location, [next.cookie]);
  return login(next.error ? { error: next.error } : {});
}
