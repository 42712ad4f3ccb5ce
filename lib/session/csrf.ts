/**
 * CSRF protection of OptiGate's forms (signed double submit): a random, HttpOnly cookie set before the form is
 * shown, and a hidden field holding its HMAC under a key derived from SECRET_KEY. A POST is accepted when the two
 * agree and, if the browser named an origin, it is OptiGate's own. Under `Referrer-Policy: no-referrer` browsers
 * send `Origin: null` on form posts (Fetch standard), which therefore says nothing either way.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "@/lib/crypto/secret-box";
import { readCookie } from "@/lib/http/cookies";

export const CSRF_COOKIE = "optigate_csrf";
export const CSRF_FIELD = "csrf_token";

export function csrfToken(cookieValue: string, secretKey: string): string {
  return createHmac("sha256", deriveKey(secretKey, "csrf")).update(cookieValue).digest("base64url");
}

export function isValidCsrfSubmission(request: Request, form: URLSearchParams, secretKey: string, publicUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null" && origin !== new URL(publicUrl).origin) return false;
  const cookieValue = readCookie(request, CSRF_COOKIE);
  const submitted = form.get(CSRF_FIELD);
  if (!cookieValue || !submitted) return false;
  const expected = Buffer.from(csrfToken(cookieValue, secretKey));
  const actual = Buffer.from(submitted);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
