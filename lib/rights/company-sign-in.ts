/**
 * The login page's first step, for an address whose company signs in itself (issue 46; an existing account's own
 * company, else the company that verified the domain: lib/session/sso-only-address.ts): the authorization request to
 * the company's provider (PKCE, state, nonce; the address as login_hint; the relying party's ui_locales, else the
 * page's language; its prompt=login and max_age passed on, max_age=0 as prompt=login) and the
 * sealed cookie that keeps it until the provider sends the person back. Public: the address is all there is to go
 * on, and the provider decides who signs in. Null: the domain has no company sign-in, the password step follows.
 */
import "server-only";
import { companySsoForAddress } from "@/lib/session/sso-only-address";
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
/** The relying party's max_age (seconds, OIDC Core §3.1.2.1), when it is a whole number; else none. */
const maxAgeOf = (value: string | null | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

export async function startCompanySignInFor(
  context: ServiceContext,
  who: { email: string } | { domain: string },
  page: { returnUrl: string; locale: string },
): Promise<{ location: string; cookie: string } | null> {
  const { config, stores } = context;
  const found =
    "email" in who
      ? await companySsoForAddress(stores, who.email)
      : (await stores.companySso.ssoForEmailDomain(who.domain))?.config;
  if (!found) return null;
  const authorize = authorizeParametersOf(page.returnUrl);
  const email = "email" in who ? who.email : (authorize?.get("login_hint") ?? undefined);
  const maxAge = maxAgeOf(authorize?.get("max_age"));
  const reauthenticate = (authorize?.get("prompt") ?? "").split(" ").includes("login") || maxAge === 0;
  const { authorizationUrl, pending } = await startCompanySignIn(
    await companySsoConfigOf(found, context),
    {
      redirectUri: `${config.publicUrl}${ENDPOINTS.companySsoCallback}`,
      ...(email ? { loginHint: email } : {}),
      uiLocales: authorize?.get("ui_locales") || page.locale,
      ...(reauthenticate ? { prompt: "login" } : {}),
      ...(maxAge === undefined ? {} : { maxAge }),
    },
    config,
  );
  return { location: authorizationUrl, cookie: companySignInCookie({ pending, returnUrl: page.returnUrl }, config) };
}
