/**
 * Short-lived cookies that carry the outcome of a form POST to the page shown after it (a new client secret, a
 * catalog import's errors): too long or too secret for a URL. Sealed with a key derived from SECRET_KEY, so only
 * OptiGate writes and reads them; they live two minutes.
 */
import { SEALED_COOKIE_SECONDS } from "@/lib/config/policy";
import { deriveKey, seal, unseal } from "@/lib/crypto/secret-box";
import { isSecureOrigin, serializeCookie } from "@/lib/http/cookies";

export function sealedCookie(
  name: string,
  value: unknown,
  options: { secretKey: string; publicUrl: string; path: string },
): string {
  const sealed = seal(JSON.stringify(value), deriveKey(options.secretKey, "cookie"));
  return serializeCookie(name, sealed, {
    secure: isSecureOrigin(options.publicUrl),
    path: options.path,
    maxAgeSeconds: SEALED_COOKIE_SECONDS,
  });
}

/** The cookie's value, or undefined when it is absent, forged or sealed under another key. */
export function unsealedCookieValue<T>(sealed: string | undefined, secretKey: string): T | undefined {
  try {
    return sealed ? (JSON.parse(unseal(sealed, deriveKey(secretKey, "cookie"))) as T) : undefined;
  } catch {
    return undefined;
  }
}
