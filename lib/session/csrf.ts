/**
 * CSRF protection of OptiGate's forms (signed double submit): a random, HttpOnly cookie set before the form is
 * shown, and a hidden field holding an HMAC of it and of the login session under a key derived from SECRET_KEY. A
 * POST is accepted when the two agree for the session the request carries, and, if the browser named an origin, it
 * is OptiGate's own. Binding the token to the session means a token read or planted before a sign-in (or in another
 * session) is worthless afterwards. Over https the cookie has the `__Host-` prefix: Secure, Path=/, no Domain, so a
 * neighbouring subdomain cannot plant one. Under `Referrer-Policy: no-referrer` browsers send `Origin: null` on form
 * posts (Fetch standard), which therefore says nothing either way.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "@/lib/crypto/secret-box";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { hostCookieName, isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";
import { readSessionCookie } from "@/lib/session/session-cookie";

export const CSRF_FIELD = "csrf_token";

/** What a CSRF cookie value looks like (it is random base64url); anything else is replaced, never passed on. */
export const CSRF_COOKIE_VALUE = /^[A-Za-z0-9_-]{16,128}$/;

export function csrfCookieName(publicUrl: string): string {
  return hostCookieName("optigate_csrf", publicUrl);
}

/** The form token for a CSRF cookie value and the login session cookie the browser holds (none: empty). */
export function csrfToken(cookieValue: string, secretKey: string, sessionCookieValue = ""): string {
  return createHmac("sha256", deriveKey(secretKey, "csrf"))
    .update(`${cookieValue}\n${sessionCookieValue}`)
    .digest("base64url");
}

/**
 * The form token of a page a route handler writes itself (what lib/pages/page-proxy.ts does for Next's pages): for
 * the browser's CSRF cookie, or a new one to set when it has none of ours.
 */
export function handlerPageCsrf(
  request: Request,
  config: { secretKey: string; publicUrl: string },
): { token: string; cookie?: string } {
  const name = csrfCookieName(config.publicUrl);
  const existing = readCookie(request, name);
  const kept = existing !== undefined && CSRF_COOKIE_VALUE.test(existing);
  const value = kept ? existing : generateOpaqueToken();
  const token = csrfToken(value, config.secretKey, readSessionCookie(request, config.publicUrl));
  return kept
    ? { token }
    : { token, cookie: serializeCookie(name, value, { secure: isSecureOrigin(config.publicUrl) }) };
}

export function isValidCsrfSubmission(
  request: Request,
  form: URLSearchParams,
  secretKey: string,
  publicUrl: string,
): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null" && origin !== new URL(publicUrl).origin) return false;
  const cookieValue = readCookie(request, csrfCookieName(publicUrl));
  const submitted = form.get(CSRF_FIELD);
  if (!cookieValue || !submitted) return false;
  const expected = Buffer.from(csrfToken(cookieValue, secretKey, readSessionCookie(request, publicUrl)));
  const actual = Buffer.from(submitted);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
