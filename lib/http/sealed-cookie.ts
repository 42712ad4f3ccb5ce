/**
 * Short-lived cookies that carry the outcome of a form POST to the page shown after it (a new client secret, a
 * catalog import's errors): too long or too secret for a URL. Sealed with a key derived from SECRET_KEY, so only
 * OptiGate writes and reads them; they live two minutes unless a caller says otherwise.
 */
import { SEALED_COOKIE_SECONDS } from "@/lib/config/policy";
import { seal, unseal } from "@/lib/crypto/secret-box";
import { isSecureOrigin, serializeCookie } from "@/lib/http/cookies";

/** A key of each cookie's own: a value sealed for one cookie does not open as another's (whose page expects
 * another shape). */
const cookiePurpose = (name: string) => `cookie:${name}` as const;

export function sealedCookie(
  name: string,
  value: unknown,
  options: { secretKey: string; publicUrl: string; path: string; maxAgeSeconds?: number },
): string {
  const sealed = seal(JSON.stringify(value), options.secretKey, cookiePurpose(name));
  return serializeCookie(name, sealed, {
    secure: isSecureOrigin(options.publicUrl),
    path: options.path,
    maxAgeSeconds: options.maxAgeSeconds ?? SEALED_COOKIE_SECONDS,
  });
}

/** The cookie's value, or undefined when it is absent, forged, sealed under another key or for another cookie. */
export function unsealedCookieValue<T>(name: string, sealed: string | undefined, secretKey: string): T | undefined {
  try {
    return sealed ? (JSON.parse(unseal(sealed, secretKey, cookiePurpose(name))) as T) : undefined;
  } catch {
    return undefined;
  }
}
