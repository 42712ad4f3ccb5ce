/**
 * GET|POST /connect/authorize: validate the request, then log the user in, ask for consent, or issue a code.
 * Login and consent happen on OptiGate's pages, which lead back here (login) or finish the request (consent).
 */
import { PAGES } from "@/lib/http/paths";
import { logger } from "@/lib/observability/logger";
import { noteClient } from "@/lib/observability/request-context";
import { isFormRequest, readBodyText, RequestBodyError } from "@/lib/http/form-body";
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { endingSignInLanguage } from "@/lib/i18n/sign-in-language";
import { errorPage } from "@/lib/i18n/error-page";
import { authorizeReturnUrl } from "@/lib/oauth/authorize/return-url";
import { AuthorizationError, type AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { markPushedRequestUsed, readAuthorizationRequest } from "@/lib/oauth/authorize/read-authorization-request";
import { authorizationErrorResponse, authorizationResponse } from "@/lib/oauth/authorize/authorization-response";
import { issueAuthorizationCode } from "@/lib/oauth/authorize/issue-authorization-code";
import { implicitResponseValues } from "@/lib/oauth/authorize/issue-implicit-tokens";
import { decideNextStep } from "@/lib/oauth/authorize/next-step";
import { outsideVendor } from "@/lib/oauth/authorize/vendor-sign-in";
import { invalidRequest, OAuthError, UnsafeRedirectError } from "@/lib/errors/oauth-error";
import { readIdTokenHint } from "@/lib/oauth/id-token-hint";
import type { ServiceContext } from "@/lib/service-context";
import { findActiveSession, type ActiveSession } from "@/lib/session/login-session";
import { readSessionCookie } from "@/lib/session/session-cookie";

async function readParameters(request: Request): Promise<URLSearchParams> {
  if (request.method !== "POST") return new URL(request.url).searchParams;
  if (!isFormRequest(request))
    throw new UnsafeRedirectError("invalid_request", "the request body must be application/x-www-form-urlencoded");
  return new URLSearchParams(await readBodyText(request));
}

/** Issues the code (or, in the implicit flow, the tokens) for an authorized request and sends it to the client. */
export async function completeAuthorization(
  context: ServiceContext,
  request: AuthorizationRequest,
  session: ActiveSession,
  scopes: string[],
  status: 302 | 303,
): Promise<Response> {
  const outsider = outsideVendor(request, session.user);
  if (outsider) throw new AuthorizationError(outsider, request);
  if (!(await markPushedRequestUsed(context, request)))
    throw new AuthorizationError(invalidRequest("request_uri was used already: push the request again"), request);
  // Remember that this session signed in to the client, to tell it when the session ends.
  await context.stores.loginSessions.rememberClient(session.id, request.client.id);
  const values =
    request.responseType === "code"
      ? {
          code: await issueAuthorizationCode(context, request, {
            userId: session.user.id,
            sessionId: session.id,
            authTime: session.authTime,
            amr: session.amr,
            scopes,
          }),
        }
      : await implicitResponseValues(context, request, session, scopes);
  return authorizationResponse(request, values, context.config.publicUrl, status);
}

/** The user an id_token_hint names; it must be an ID token OptiGate issued to this client. */
async function hintedSubject(context: ServiceContext, idTokenHint: string, clientId: string): Promise<string> {
  const hint = await readIdTokenHint(
    idTokenHint,
    await context.stores.signingKeys.keySet(context.config.secretKey),
    context.config.publicUrl,
  );
  if (!hint || hint.clientId !== clientId)
    throw invalidRequest("id_token_hint is not an ID token that OptiGate issued to this application");
  return hint.subject;
}

const redirectTo = (location: string) =>
  new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });

async function continueAuthorization(
  context: ServiceContext,
  httpRequest: Request,
  request: AuthorizationRequest,
): Promise<Response> {
  const now = new Date();
  const session = await findActiveSession(
    context.stores.loginSessions,
    readSessionCookie(httpRequest, context.config.publicUrl),
    now,
  );
  const hintSubject = request.idTokenHint
    ? await hintedSubject(context, request.idTokenHint, request.client.id)
    : undefined;
  const granted = session ? await context.stores.consents.findGrantedScopes(session.user.id, request.client.id) : null;
  const facts = session
    ? {
        userId: session.user.id,
        authTime: session.authTime,
        amr: session.amr,
        secondFactorRequired: session.user.company.requireSecondFactor,
      }
    : null;
  const step = decideNextStep(request, facts, granted, hintSubject, now);
  // Once someone is signed in, a vendor-only sign-in refuses them before any consent is asked.
  const outsider = session && step.kind !== "login" ? outsideVendor(request, session.user) : undefined;
  if (outsider) throw outsider;
  switch (step.kind) {
    case "error":
      throw new AuthorizationError(step.error, request);
    case "login":
      return redirectTo(`${PAGES.login}?${new URLSearchParams({ returnUrl: authorizeReturnUrl(request.parameters) })}`);
    case "second_factor":
      return redirectTo(
        `${PAGES.secondFactor}?${new URLSearchParams({ returnUrl: authorizeReturnUrl(request.parameters), ...(request.uiLocales ? { ui_locales: request.uiLocales } : {}) })}`,
      );
    case "consent": {
      // The consent page decides a prompt opened here, after the login checks above: it cannot be reached around them.
      const interaction = await context.stores.authorizationRequests.openInteraction(
        session!.id,
        request.client.id,
        request.parameters,
        new Date(),
      );
      return redirectTo(
        `${PAGES.consent}?${new URLSearchParams({ interaction, ...(request.uiLocales ? { ui_locales: request.uiLocales } : {}) })}`,
      );
    }
    case "issue":
      return completeAuthorization(context, request, session!, step.scopes, 302);
  }
}

/**
 * A sandbox's redirect URI is the vendor's, not yet reviewed by the operator: an error goes there only for a person
 * of the vendor's company signed in; anyone else gets OptiGate's error page, as for an unknown application.
 */
async function mayRedirect(context: ServiceContext, httpRequest: Request, error: AuthorizationError) {
  const { sandboxOf } = error.target;
  if (sandboxOf === undefined) return true;
  const cookie = readSessionCookie(httpRequest, context.config.publicUrl);
  const session = await findActiveSession(context.stores.loginSessions, cookie, new Date());
  return session?.user.company.id === sandboxOf;
}

/**
 * Every answer ends the language an earlier sign-in asked for: this request's sign-in pages are told its own
 * ui_locales, and its answer to the client ends the sign-in.
 */
export async function handleAuthorizeRequest(httpRequest: Request, context: ServiceContext): Promise<Response> {
  const response = await answerAuthorizeRequest(httpRequest, context);
  return endingSignInLanguage(httpRequest, response, context.config.publicUrl);
}

async function answerAuthorizeRequest(httpRequest: Request, context: ServiceContext): Promise<Response> {
  let uiLocales: string | null = null;
  try {
    const params = await readParameters(httpRequest);
    uiLocales = params.get("ui_locales");
    const request = await readAuthorizationRequest(context, params);
    noteClient(request.client.id);
    try {
      return await continueAuthorization(context, httpRequest, request);
    } catch (error) {
      throw error instanceof OAuthError ? new AuthorizationError(error, request) : error;
    }
  } catch (error) {
    const locale = localeOfRequest(httpRequest, { uiLocales });
    if (error instanceof AuthorizationError && !(await mayRedirect(context, httpRequest, error)))
      return errorPage(locale, "invalid_request", error.error.message);
    if (error instanceof AuthorizationError) return authorizationErrorResponse(error, context.config.publicUrl);
    if (error instanceof UnsafeRedirectError)
      return errorPage(locale, error.code as "invalid_client" | "invalid_request", error.description);
    if (error instanceof RequestBodyError) return errorPage(locale, "invalid_request", error.message, error.status);
    logger.error({ err: error }, "authorization request failed");
    return errorPage(locale, "server_error", "an unexpected error occurred", 500);
  }
}
