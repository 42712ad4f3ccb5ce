/**
 * The login session's cookie: a random value whose SHA-256 hash names the session (lib/session/login-session.ts).
 * HttpOnly, SameSite=Lax, and Secure when OptiGate is served over https.
 */
import { isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";

export const SESSION_COOKIE = "optigate_session";
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

export function sessionCookie(cookieValue: string, publicUrl: string): string {
  return serializeCookie(SESSION_COOKIE, cookieValue, {
    secure: isSecureOrigin(publicUrl),
    maxAgeSeconds: SESSION_LIFETIME_SECONDS,
  });
}

export function readSessionCookie(request: Request): string | undefined {
  return readCookie(request, SESSION_COOKIE);
}
