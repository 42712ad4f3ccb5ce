/**
 * POST /interaction/consent: the consent form. The user allows a subset of the requested scopes (`openid` cannot be
 * left out when requested) or denies; the decision goes to the prompt the authorization endpoint opened for this
 * session (lib/rights/consent.ts), which answers the client at once with a 303 to its redirect URI. Or the user is
 * someone else ("not you?"): the session ends and a fresh login continues the same authorization request. The answer
 * to the client ends the sign-in, and with it the language its ui_locales asked for.
 */
import { PAGES } from "@/lib/http/paths";
import { AccessDenied, actorOfRequest, requireUser, type Actor } from "@/lib/rights/actor";
import { decideConsent, withdrawConsentPrompt } from "@/lib/rights/consent";
import { errorPage } from "@/lib/i18n/error-page";
import { readForm } from "@/lib/http/form-body";
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { endingSignInLanguage } from "@/lib/i18n/sign-in-language";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { AuthorizationError } from "@/lib/oauth/authorize/authorization-request";
import { authorizeReturnUrl } from "@/lib/oauth/authorize/return-url";
import { signOut } from "@/lib/oauth/endsession/end-session-endpoint";
import { authorizationErrorResponse } from "@/lib/oauth/authorize/authorization-response";
import { UnsafeRedirectError } from "@/lib/errors/oauth-error";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

/** Ends the session of the user who is not the one signing in, then asks for a login to the same request. */
async function signInAsSomeoneElse(
  context: ServiceContext,
  actor: Actor,
  interaction: string,
): Promise<Response | undefined> {
  const user = requireUser(actor);
  const parameters = await withdrawConsentPrompt(user, interaction);
  if (!parameters) return undefined;
  // Both hints name the user who is leaving: kept, they would send the next one back to the login, again and again.
  parameters.delete("login_hint");
  parameters.delete("id_token_hint");
  return signOut(context, user.session, pageUrl(PAGES.login, { returnUrl: authorizeReturnUrl(parameters) }), 303);
}

export async function handleConsentSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  const form = await readForm(request);
  const interaction = form.get("interaction") ?? "";
  const locale = localeOfRequest(request);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(pageUrl(PAGES.consent, { interaction, error: "form_expired" }));
  const expired = () =>
    errorPage(
      locale,
      "invalid_request",
      "this consent request has expired or was already answered; start again from the application",
    );
  try {
    if (form.get("decision") === "switch_user")
      return (await signInAsSomeoneElse(context, actor, interaction)) ?? (await expired());
    const decision = form.get("decision") === "allow" ? form.getAll("scope") : "deny";
    const answer = await decideConsent(actor, interaction, decision);
    return answer ? endingSignInLanguage(request, answer, config.publicUrl) : await expired();
  } catch (error) {
    if (error instanceof AccessDenied) return expired();
    if (error instanceof AuthorizationError)
      return endingSignInLanguage(request, authorizationErrorResponse(error, config.publicUrl, 303), config.publicUrl);
    if (error instanceof UnsafeRedirectError)
      return errorPage(locale, error.code as "invalid_client" | "invalid_request", error.description);
    throw error;
  }
}
