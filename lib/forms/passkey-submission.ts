/**
 * POST /interaction/passkey: the passkey ceremonies the pages' script runs (as a form, with the page's CSRF token),
 * answered in JSON. `action=options|verify` with `step=sign-in` (no user name: any discoverable passkey) or
 * `step=second-factor` (the user at the second step, or of a session stepping up); `action=register-options|register`
 * for the signed-in user's security page. A verified sign-in answers where to go and sets the session cookie; a new
 * passkey that is the user's first factor leaves its recovery codes for the page (a one-time cookie).
 */
import { PAGES } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { readCookie } from "@/lib/http/cookies";
import { CHALLENGE_COOKIE } from "@/lib/second-factor/webauthn-challenges";
import { RECOVERY_CODES_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { safeLocalPath } from "@/lib/http/local-path";
import { noStoreJson } from "@/lib/http/no-store-json";
import { logger } from "@/lib/observability/logger";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { afterLogin } from "@/lib/oauth/authorize/return-url";
import { AccessDenied, actorOfRequest, pageLanguageOf } from "@/lib/rights/actor";
import { addPasskey, passkeyOptionsForRegistration } from "@/lib/rights/second-factors";
import { passkeyOptions, SecondFactorError, signInWithPasskey, stepSubject } from "@/lib/rights/second-step";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { endPendingSignInCookie, readPendingSignIn } from "@/lib/session/pending-sign-in";
import { readSessionCookie, sessionCookie } from "@/lib/session/session-cookie";

const refusal = (code: string, status = 400) => noStoreJson({ error: code }, status);

function withCookies(response: Response, cookies: string[]): Response {
  for (const cookie of cookies) response.headers.append("Set-Cookie", cookie);
  return response;
}

/** The options for the browser, with the cookie that remembers their challenge. */
const ceremonyStart = ({ options, cookie }: { options: unknown; cookie: string }) =>
  withCookies(noStoreJson(options), [cookie]);

const sentResponse = (request: Request, form: URLSearchParams) => ({
  text: form.get("response") ?? "",
  cookie: readCookie(request, CHALLENGE_COOKIE),
});

async function signInStep(request: Request, context: ServiceContext, form: URLSearchParams): Promise<Response> {
  const { config } = context;
  const secondStep = form.get("step") === "second-factor";
  const subject = secondStep
    ? await stepSubject(context, {
        pending: readPendingSignIn(request, config.publicUrl),
        session: readSessionCookie(request, config.publicUrl),
      })
    : undefined;
  if (secondStep && !subject) return refusal("sign_in_required", 401);
  if (form.get("action") === "options") return ceremonyStart(await passkeyOptions(context, subject));
  const { cookieValue } = await signInWithPasskey(context, subject, sentResponse(request, form), {
    ipAddress: clientAddress(request, config.trustedProxies),
    userAgent: request.headers.get("user-agent") ?? undefined,
  });
  const next = afterLogin(safeLocalPath(form.get("returnUrl")) ?? PAGES.home);
  return withCookies(
    noStoreJson({ next }),
    cookieValue ? [sessionCookie(cookieValue, config.publicUrl), endPendingSignInCookie(config.publicUrl)] : [],
  );
}

async function registration(request: Request, context: ServiceContext, form: URLSearchParams): Promise<Response> {
  const actor = await actorOfRequest(context, request);
  const proof = {
    currentPassword: form.get("current_password") ?? undefined,
    ipAddress: clientAddress(request, context.config.trustedProxies),
    language: pageLanguageOf(actor, request),
  };
  if (form.get("action") === "register-options")
    return ceremonyStart(await passkeyOptionsForRegistration(actor, proof));
  const codes = await addPasskey(actor, sentResponse(request, form), form.get("name") ?? "", proof);
  const { secretKey, publicUrl } = context.config;
  return withCookies(
    noStoreJson({ next: `${PAGES.security}?done=passkey` }),
    codes ? [sealedCookie(RECOVERY_CODES_COOKIE, codes, { secretKey, publicUrl, path: PAGES.security })] : [],
  );
}

export async function handlePasskeySubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return refusal("form_expired", 403);
  const action = form.get("action") ?? "";
  try {
    if (action === "options" || action === "verify") return await signInStep(request, context, form);
    if (action === "register-options" || action === "register") return await registration(request, context, form);
    return refusal("unknown_action");
  } catch (error) {
    if (error instanceof AccessDenied) return refusal("sign_in_required", 401);
    if (error instanceof SecondFactorError) {
      logger.info({ code: error.code, reason: error.message }, "passkey refused");
      return refusal(error.code);
    }
    throw error;
  }
}
