/**
 * A sign-in half done: the password was right, the second factor is still to come. A sealed cookie (its own key
 * from SECRET_KEY) names the user and when the step ends, five minutes on; the second-factor page and its forms read
 * it, and a session exists only once the second factor is given.
 */
import { seal, unseal } from "@/lib/crypto/secret-box";
import { expireCookie, hostCookieName, isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";

/** The cookie's name over plain http; over https with the `__Host-` prefix (pendingSignInCookieName). */
export const PENDING_SIGN_IN_COOKIE = "optigate_second_step";

export const pendingSignInCookieName = (publicUrl: string) => hostCookieName(PENDING_SIGN_IN_COOKIE, publicUrl);
const PENDING_SIGN_IN_SECONDS = 5 * 60;

export function pendingSignInCookie(
  userId: string,
  config: { secretKey: string; publicUrl: string },
  now = new Date(),
) {
  const value = seal(
    JSON.stringify({ userId, until: now.getTime() + PENDING_SIGN_IN_SECONDS * 1000 }),
    config.secretKey,
    "pending-sign-in",
  );
  return serializeCookie(pendingSignInCookieName(config.publicUrl), value, {
    secure: isSecureOrigin(config.publicUrl),
    maxAgeSeconds: PENDING_SIGN_IN_SECONDS,
  });
}

export const endPendingSignInCookie = (publicUrl: string) =>
  expireCookie(pendingSignInCookieName(publicUrl), { secure: isSecureOrigin(publicUrl) });

/** The user whose password was right, while the step lasts; undefined for none, a forged or an old cookie. */
export function pendingSignInUser(sealed: string | undefined, secretKey: string, now = new Date()): string | undefined {
  if (!sealed) return undefined;
  try {
    const { userId, until } = JSON.parse(unseal(sealed, secretKey, "pending-sign-in")) as {
      userId: unknown;
      until: unknown;
    };
    return typeof userId === "string" && typeof until === "number" && until > now.getTime() ? userId : undefined;
  } catch {
    return undefined;
  }
}

export const readPendingSignIn = (request: Request, publicUrl: string) =>
  readCookie(request, pendingSignInCookieName(publicUrl));
