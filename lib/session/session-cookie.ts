/**
 * The login session's cookie: a random value whose SHA-256 hash names the session (lib/session/login-session.ts).
 * HttpOnly, SameSite=Lax, and Secure when OptiGate is served over https.
 */
import { SESSION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { expireCookie, hostCookieName, isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";

/** The cookie's name over plain http; over https it is `__Host-optigate_session` (sessionCookieName). */
export const SESSION_COOKIE = "optigate_session";

export const sessionCookieName = (publicUrl: string) => hostCookieName(SESSION_COOKIE, publicUrl);

export function sessionCookie(cookieValue: string, publicUrl: string): string {
  return serializeCookie(sessionCookieName(publicUrl), cookieValue, {
    secure: isSecureOrigin(publicUrl),
    maxAgeSeconds: SESSION_LIFETIME_SECONDS,
  });
}

export const expireSessionCookie = (publicUrl: string) =>
  expireCookie(sessionCookieName(publicUrl), { secure: isSecureOrigin(publicUrl) });

export function readSessionCookie(request: Request, publicUrl: string): string | undefined {
  return readCookie(request, sessionCookieName(publicUrl));
}

/** The value of the session cookie an answer sets, when it starts a session (not when it expires the cookie). */
export function startedSessionCookie(response: Response, publicUrl: string): string | undefined {
  const prefix = `${sessionCookieName(publicUrl)}=`;
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(prefix));
  const value = header?.slice(prefix.length).split(";")[0];
  return value ? decodeURIComponent(value) : undefined;
}
