/**
 * POST /interaction/login: the login form. Checks the CSRF token, then signs in (lib/rights/sign-in.ts) and continues
 * the flow with 303.
 */
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { signIn } from "@/lib/rights/sign-in";
import { clientAddress } from "@/lib/http/client-address";
import { expireCookie, isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import { LOGIN_USERNAME_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { afterLogin } from "@/lib/oauth/authorize/return-url";
import { safeLocalPath } from "@/lib/http/local-path";
import { pageUrl, seeOther } from "@/lib/forms/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { sessionCookie } from "@/lib/session/session-cookie";

/** Remembers the typed user name for the login page shown after a failed attempt. */

export async function handleLoginSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const returnUrl = safeLocalPath(form.get("returnUrl")) ?? "/";
  const email = (form.get("username") ?? "").trim().toLowerCase();
  const secure = isSecureOrigin(config.publicUrl);
  const rememberName = serializeCookie(LOGIN_USERNAME_COOKIE, email, { secure, path: "/login", maxAgeSeconds: 300 });
  const back = (error: string, extra: Record<string, string> = {}) =>
    seeOther(
      pageUrl("/login", { returnUrl, error, ...extra }),
      email && email.length <= MAX_USERNAME_LENGTH ? [rememberName] : [],
    );

  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back("form_expired");
  const password = form.get("password") ?? "";
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
  return seeOther(afterLogin(returnUrl), [
    sessionCookie(result.cookieValue, config.publicUrl),
    expireCookie(LOGIN_USERNAME_COOKIE, { secure, path: "/login" }),
  ]);
}
