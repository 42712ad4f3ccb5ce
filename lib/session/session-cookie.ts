/**
 * The login session's cookie: a random value whose SHA-256 hash names the session (lib/session/login-session.ts).
 * HttpOnly, SameSite=Lax, and Secure when OptiGate is served over https.
 */
import { SESSION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";

export const SESSION_COOKIE = "optigate_session";

export function sessionCookie(cookieValue: string, publicUrl: string): string {
  return serializeCookie(SESSION_COOKIE, cookieValue, {
    secure: isSecureOrigin(publicUrl),
    maxAgeSeconds: SESSION_LIFETIME_SECONDS,
  });
}

export function readSessionCookie(request: Request): string | undefined {
  return readCookie(request, SESSION_COOKIE);
}
