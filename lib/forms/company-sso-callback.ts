/**
 * GET /login/sso/callback: a company's provider sends the person back here (CONTRACT §14). The sign-in is finished
 * (lib/rights/company-sign-in-callback.ts) and continues like a password's; any refusal, a missing cookie or a
 * provider that failed goes back to the login page with a localized error (303), never a server error. The kept
 * sign-in's cookie ends either way: each one is good for one answer.
 */
import { clientAddress } from "@/lib/http/client-address";
import { safeLocalPath } from "@/lib/http/local-path";
import { PAGES } from "@/lib/http/paths";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { endCompanySignInCookie } from "@/lib/oauth/company-sso/sign-in-cookie";
import { finishCompanySignInAt } from "@/lib/rights/company-sign-in-callback";
import { signedInRedirect } from "@/lib/forms/signed-in-redirect";
import type { ServiceContext } from "@/lib/service-context";

export async function handleCompanySsoCallback(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const result = await finishCompanySignInAt(context, request, {
    ipAddress: clientAddress(request, config.trustedProxies),
    userAgent: request.headers.get("user-agent") ?? undefined,
  });
  const end = endCompanySignInCookie(config.publicUrl);
  const returnUrl = safeLocalPath(result.returnUrl) ?? "/";
  if (!result.ok) return seeOther(pageUrl(PAGES.login, { returnUrl, error: result.error }), [end]);
  return signedInRedirect(result, returnUrl, config, [end]);
}
