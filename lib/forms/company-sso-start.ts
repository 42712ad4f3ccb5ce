/**
 * GET /login/sso/start?returnUrl=…: the login page sends the browser here when the authorization request behind it
 * names a company domain in `idp_hint`, so that the relying party's user skips the question for their address. A
 * domain with company sign-in goes on to the provider; any other, or a hint that is no domain, gets the login page.
 * Only a valid authorization request's hint counts (a registered client and redirect URI, or its pushed request):
 * else anyone could make OptiGate's origin redirect to a provider's authorization endpoint.
 */
import { safeLocalPath } from "@/lib/http/local-path";
import { DomainNameError, normalizeDomain } from "@/lib/http/domain-name";
import { PAGES } from "@/lib/http/paths";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { OAuthError } from "@/lib/errors/oauth-error";
import { AuthorizationError } from "@/lib/oauth/authorize/authorization-request";
import { readAuthorizationRequest } from "@/lib/oauth/authorize/read-authorization-request";
import { authorizeParametersOf } from "@/lib/oauth/authorize/return-url";
import { companySignInStep } from "@/lib/forms/company-sign-in-step";
import type { ServiceContext } from "@/lib/service-context";

/** Whether the parameters make an authorization request OptiGate would answer (its own checks, not a copy). */
async function isValidRequest(context: ServiceContext, params: URLSearchParams): Promise<boolean> {
  try {
    await readAuthorizationRequest(context, params);
    return true;
  } catch (error) {
    if (error instanceof OAuthError || error instanceof AuthorizationError) return false;
    throw error;
  }
}

/** The domain a valid authorization request's idp_hint names, or undefined. */
async function hintedDomain(context: ServiceContext, returnUrl: string): Promise<string | undefined> {
  const params = authorizeParametersOf(returnUrl);
  const hint = params?.get("idp_hint");
  if (!hint || !(await isValidRequest(context, params!))) return undefined;
  try {
    return normalizeDomain(hint);
  } catch (error) {
    if (error instanceof DomainNameError) return undefined;
    throw error;
  }
}

export async function handleCompanySsoStart(request: Request, context: ServiceContext): Promise<Response> {
  const returnUrl = safeLocalPath(new URL(request.url).searchParams.get("returnUrl")) ?? PAGES.home;
  const login = (extra: Record<string, string> = {}) =>
    seeOther(pageUrl(PAGES.login, { returnUrl, hinted: "1", ...extra }));
  const domain = await hintedDomain(context, returnUrl);
  if (!domain) return login();
  const next = await companySignInStep(request, context, { domain }, returnUrl);
  if (next.ok) return seeOther(next.location, [next.cookie]);
  return login(next.error ? { error: next.error } : {});
}
