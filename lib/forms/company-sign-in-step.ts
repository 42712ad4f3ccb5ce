/**
 * Starting a company's sign-in from the login flow, for a typed address (the login form's first step) or for the
 * domain a relying party named in `idp_hint` (GET /login/sso/start): the provider to go to with the cookie that keeps
 * the sign-in, why it cannot be asked (a login page error; the details to the log), or nothing when the domain has no
 * company sign-in.
 */
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { logger } from "@/lib/observability/logger";
import { authorizeParametersOf } from "@/lib/oauth/authorize/return-url";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import { loginPageErrorOf } from "@/lib/oauth/company-sso/login-page-error";
import { startCompanySignInFor } from "@/lib/rights/company-sign-in";
import type { ServiceContext } from "@/lib/service-context";

export async function companySignInStep(
  request: Request,
  context: ServiceContext,
  who: { email: string } | { domain: string },
  returnUrl: string,
) {
  const uiLocales = authorizeParametersOf(returnUrl)?.get("ui_locales");
  try {
    const company = await startCompanySignInFor(context, who, {
      returnUrl,
      locale: localeOfRequest(request, { uiLocales }),
    });
    return company ? { ok: true as const, ...company } : { ok: false as const, error: undefined };
  } catch (error) {
    if (!(error instanceof CompanySignInFailed)) throw error;
    logger.info({ code: error.code, reason: error.message, detail: error.detail }, "company sign-in not started");
    return { ok: false as const, error: loginPageErrorOf(error) };
  }
}
