/**
 * GET /login/sso/callback: a company's provider sends the person back here (CONTRACT §14). The sign-in is finished
 * (lib/rights/company-sign-in-callback.ts) and continues like a password's; any refusal, a missing cookie or a
 * provider that failed goes back to the login page with a localized error (303), never a server error. The kept
 * sign-in's cookie ends either way: each one is good for one answer. An address with an account already in the
 * company goes to the password step, the provider's account kept for linking (lib/rights/company-sso-link.ts).
 */
import { clientAddress } from "@/lib/http/client-address";
import { safeLocalPath } from "@/lib/http/local-path";
import { PAGES } from "@/lib/http/paths";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { ssoLinkCookie } from "@/lib/oauth/company-sso/link-cookie";
import { endCompanySignInCookie, readCompanySignIn } from "@/lib/oauth/company-sso/sign-in-cookie";
import { rememberedUsernameCookie } from "@/lib/http/flash-cookies";
import { finishCompanySignInAt } from "@/lib/rights/company-sign-in-callback";
import { signedInRedirect } from "@/lib/forms/signed-in-redirect";
import { answerCompanySsoTest } from "@/lib/forms/company-sso-test-callback";
import type { ServiceContext } from "@/lib/service-context";

export async function handleCompanySsoCallback(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  // An administrator's connection test comes back here too, and is answered on the company page.
  const kept = readCompanySignIn(request, config.secretKey);
  if (kept?.test) return answerCompanySsoTest(request, context, kept);
  const result = await finishCompanySignInAt(context, request, {
    ipAddress: clientAddress(request, config.trustedProxies),
    userAgent: request.headers.get("user-agent") ?? undefined,
  });
  const end = endCompanySignInCookie(config.publicUrl);
  const returnUrl = safeLocalPath(result.returnUrl) ?? PAGES.home;
  if (!result.ok && result.error === "sso_link_offered") {
    const { link } = result;
    const address = rememberedUsernameCookie(link.email, config.publicUrl);
    const offer = pageUrl(PAGES.login, { returnUrl, step: "password", notice: "sso_link" });
    return seeOther(offer, [end, ssoLinkCookie(link, config), address]);
  }
  if (!result.ok) return seeOther(pageUrl(PAGES.login, { returnUrl, error: result.error }), [end]);
  return signedInRedirect(result, returnUrl, config, [end]);
}
