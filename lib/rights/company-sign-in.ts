/**
 * The login page's first step, for an address whose domain a company has verified and signs in itself (issue 46):
 * the authorization request to the company's provider (PKCE, state, nonce; the address as login_hint; the relying
 * party's ui_locales, else the page's language; prompt=login passed on when the request behind asks for it) and the
 * sealed cookie that keeps it until the provider sends the person back. Public: the address is all there is to go
 * on, and the provider decides who signs in. Null: the domain has no company sign-in, the password step follows.
 */
import "server-only";
import { emailDomain } from "@/lib/http/domain-name";
import { ENDPOINTS } from "@/lib/http/paths";
import { authorizeParametersOf } from "@/lib/oauth/authorize/return-url";
import { companySignInCookie } from "@/lib/oauth/company-sso/sign-in-cookie";
import { startCompanySignIn } from "@/lib/oauth/company-sso/start-company-sign-in";
import { companySsoConfigOf } from "@/lib/oauth/company-sso/stored-config";
import type { ServiceContext } from "@/lib/service-context";

/**
 * Where the person goes and the cookie to set, for a typed address or for the domain a relying party named in
 * `idp_hint`; throws CompanySignInFailed when the provider cannot be asked.
 */
export async function startCompanySignInFor(
  context: ServiceContext,
  who: { email: string } | { domain: string },
  page: { returnUrl: string; locale: string },
): Promise<{ location: string; cookie: string } | null> {
  const { config } = context;
  const domain = "email" in who ? emailDomain(who.email) : who.domain;
  const found = domain ? await context.stores.companySso.ssoForEmailDomain(domain) : null;
  if (!found) return null;
  const authorize = authorizeParametersOf(page.returnUrl);
  const email = "email" in who ? who.email : (authorize?.get("login_hint") ?? undefined);
  const reauthenticate = (authorize?.get("prompt") ?? "").split(" ").includes("login");
  const { authorizationUrl, pending } = await startCompanySignIn(
    await companySsoConfigOf(found.config, context),
    {
      redirectUri: `${config.publicUrl}${ENDPOINTS.companySsoCallback}`,
      ...(email ? { loginHint: email } : {}),
      uiLocales: authorize?.get("ui_locales") || page.locale,
      ...(reauthenticate ? { prompt: "login" } : {}),
    },
    config,
  );
  return { location: authorizationUrl, cookie: companySignInCookie({ pending, returnUrl: page.returnUrl }, config) };
}
