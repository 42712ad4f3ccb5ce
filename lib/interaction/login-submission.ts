/**
 * POST /interaction/login: the login form. Checks the CSRF token, then the credentials (verify-credentials.ts), starts
 * a login session and continues the flow with 303.
 */
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { clientAddress } from "@/lib/http/client-address";
import { expireCookie, serializeCookie } from "@/lib/http/cookies";
import { isFormRequest } from "@/lib/http/request-parameters";
import { afterLogin, safeLocalPath } from "@/lib/interaction/return-url";
import { pageUrl, seeOther } from "@/lib/interaction/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { createLoginSession, isSecureOrigin, sessionCookie } from "@/lib/session/login-session";
import { verifyCredentials } from "@/lib/session/verify-credentials";

/** Remembers the typed user name for the login page shown after a failed attempt. */
export const LOGIN_USERNAME_COOKIE = "optigate_login_username";

export async function handleLoginSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { db, config } = context;
  const form = isFormRequest(request) ? new URLSearchParams(await request.text()) : new URLSearchParams();
  const returnUrl = safeLocalPath(form.get("returnUrl")) ?? "/";
  const email = (form.get("username") ?? "").trim().toLowerCase();
  const secure = isSecureOrigin(config.publicUrl);
  const rememberName = serializeCookie(LOGIN_USERNAME_COOKIE, email, { secure, path: "/login", maxAgeSeconds: 300 });
  const back = (error: string, extra: Record<string, string> = {}) => seeOther(pageUrl("/login", { returnUrl, error, ...extra }), email ? [rememberName] : []);

  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back("form_expired");
  const password = form.get("password") ?? "";
  if (!email || !password) return back("missing_fields");

  const ipAddress = clientAddress(request, config.trustedProxies);
  const check = await verifyCredentials(db, email, password, ipAddress);
  if (!check.ok) return check.reason === "throttled" ? back("throttled", { minutes: String(Math.ceil(check.retryAfterSeconds / 60)) }) : back(check.reason);
  const user = check.user;
  const { cookieValue, sessionId } = await createLoginSession(db, user.id, { ipAddress, userAgent: request.headers.get("user-agent") ?? undefined });
  await recordAuditEvent(db, { type: "sign_in.succeeded", userId: user.id, ipAddress, details: { sessionId } });
  return seeOther(afterLogin(returnUrl), [sessionCookie(cookieValue, config.publicUrl), expireCookie(LOGIN_USERNAME_COOKIE, { secure, path: "/login" })]);
}
