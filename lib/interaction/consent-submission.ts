/**
 * POST /interaction/consent: the consent form. The user allows a subset of the requested scopes (`openid` cannot be
 * left out when requested) or denies; the decision is remembered and the authorization request finished at once,
 * with a 303 to the client's redirect URI.
 */
import { isFormRequest } from "@/lib/http/request-parameters";
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { errorPage } from "@/lib/interaction/error-page";
import { authorizeParametersOf, safeLocalPath } from "@/lib/interaction/return-url";
import { pageUrl, seeOther } from "@/lib/interaction/see-other";
import { AuthorizationError, validateAuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { authorizationErrorResponse } from "@/lib/oauth/authorize/authorization-response";
import { completeAuthorization } from "@/lib/oauth/authorize/authorize-endpoint";
import { saveConsent } from "@/lib/oauth/consent/save-consent";
import { OAuthError, UnsafeRedirectError } from "@/lib/oauth/errors";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { findActiveSession, readSessionCookie } from "@/lib/session/login-session";

/** The scopes the user allowed: the ticked ones among those requested, and `openid` whenever it was requested. */
export function chosenScopes(requested: string[], ticked: string[]): string[] {
  return requested.filter((scope) => scope === "openid" || ticked.includes(scope));
}

export async function handleConsentSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { db, config } = context;
  const form = isFormRequest(request) ? new URLSearchParams(await request.text()) : new URLSearchParams();
  const returnUrl = safeLocalPath(form.get("returnUrl"));
  const params = authorizeParametersOf(returnUrl);
  const locale = localeOfRequest(request, params?.get("ui_locales"));
  if (!returnUrl || !params) return errorPage(locale, "invalid_request", "the consent form does not belong to an authorization request");
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return seeOther(pageUrl("/consent", { returnUrl, error: "form_expired" }));

  const session = await findActiveSession(db, readSessionCookie(request));
  if (!session) return seeOther(pageUrl("/login", { returnUrl }));
  try {
    const authorization = await validateAuthorizationRequest(db, params);
    const decision = form.get("decision");
    const granted = decision === "allow" ? chosenScopes(authorization.scopes, form.getAll("scope")) : [];
    if (granted.length === 0) {
      throw new AuthorizationError(new OAuthError("access_denied", "the user denied the request"), authorization);
    }
    await saveConsent(db, session.user.id, authorization.client.id, authorization.scopes, granted);
    return await completeAuthorization(context, authorization, session, granted, 303);
  } catch (error) {
    if (error instanceof AuthorizationError) return authorizationErrorResponse(error, config.publicUrl, 303);
    if (error instanceof UnsafeRedirectError) return errorPage(locale, error.code as "invalid_client" | "invalid_request", error.description);
    throw error;
  }
}
