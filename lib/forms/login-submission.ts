/**
 * POST /interaction/login: the login form, in two steps. The first sends the email address alone: the page then asks
 * for the password (a company's own sign-in, routed by the address's domain, takes over there). The second, or a form
 * that sends both at once, checks the CSRF token, signs in (lib/rights/sign-in.ts) and continues the flow with 303: to
 * the second step for a user with a second factor, to enrolment where the company requires one.
 */
import { PAGES } from "@/lib/http/paths";
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { signIn } from "@/lib/rights/sign-in";
import { clientAddress } from "@/lib/http/client-address";
import { expireCookie, isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import { LOGIN_USERNAME_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { afterLogin } from "@/lib/oauth/authorize/return-url";
import { safeLocalPath } from "@/lib/http/local-path";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { sessionCookie } from "@/lib/session/session-cookie";
import { pendingSignInCookie } from "@/lib/session/pending-sign-in";

/** Remembers the typed user name for the login page shown after a failed attempt. */

export async function handleLoginSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const returnUrl = safeLocalPath(form.get("returnUrl")) ?? "/";
  const email = (form.get("username") ?? "").trim().toLowerCase();
  const secure = isSecureOrigin(config.publicUrl);
  const rememberName = serializeCookie(LOGIN_USERNAME_COOKIE, email, { secure, path: PAGES.login, maxAgeSeconds: 300 });
  // The first step sends no password field at all; an empty one is a second step left blank.
  const password = form.get("password");
  const step = password === null ? {} : { step: "password" };
  const back = (error: string, extra: Record<string, string> = {}) =>
    seeOther(
      pageUrl(PAGES.login, { returnUrl, error, ...step, ...extra }),
      email && email.length <= MAX_USERNAME_LENGTH ? [rememberName] : [],
    );

  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back("form_expired");
  if (password === null) {
    if (!email || email.length > MAX_USERNAME_LENGTH) return back("missing_email");
    return seeOther(pageUrl(PAGES.login, { returnUrl, step: "password" }), [rememberName]);
  }
  if (!email || !password) return back("missing_fields");

  const result = await signIn(context, {
    username: email,
    password,
    ipAddress: clientAddress(request, config.trustedProxies),
    userAgent: request.headers.get("user-agent") ?? undefined,
  });
  if (!result.ok)
    return result.reason === "throttled"
      ? back("throttled", { minutes: String(Math.ceil(result.retryAfterSeconds / 60)) })
      : back(result.reason);
  const forgetName = expireCookie(LOGIN_USERNAME_COOKIE, { secure, path: PAGES.login });
  if (result.next === "second_step")
    return seeOther(pageUrl(PAGES.secondFactor, { returnUrl }), [
      pendingSignInCookie(result.userId, config),
      forgetName,
    ]);
  const session = sessionCookie(result.cookieValue, config.publicUrl);
  if (result.next === "enrol")
    return seeOther(pageUrl(PAGES.security, { enrol: "required", returnUrl: afterLogin(returnUrl) }), [
      session,
      forgetName,
    ]);
  return seeOther(afterLogin(returnUrl), [session, forgetName]);
}
