/**
 * A sign-in half done: the password (or the company's provider) was right, the second factor is still to come. A
 * sealed cookie (its own key from SECRET_KEY) names the user, the methods of the first step, the company's provider it
 * went through (kept with the session, for the provider's back-channel logout) and when the step ends, five minutes
 * on; the second-factor page and its forms read it, and a session exists only once the second factor is given.
 */
import { seal, unseal } from "@/lib/crypto/secret-box";
import { expireCookie, hostCookieName, isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";
import { parseAmr, PASSWORD_ONLY, type AuthenticationMethod } from "@/lib/store/models/authentication";
import type { SsoIdentity } from "@/lib/store/models/company-sso";
import type { UpstreamSession } from "@/lib/store/models/session";

/** The cookie's name over plain http; over https with the `__Host-` prefix (pendingSignInCookieName). */
export const PENDING_SIGN_IN_COOKIE = "optigate_second_step";

export const pendingSignInCookieName = (publicUrl: string) => hostCookieName(PENDING_SIGN_IN_COOKIE, publicUrl);
const PENDING_SIGN_IN_SECONDS = 5 * 60;

export function pendingSignInCookie(
  userId: string,
  config: { secretKey: string; publicUrl: string },
  now = new Date(),
  amr: readonly AuthenticationMethod[] = PASSWORD_ONLY,
  upstream?: UpstreamSession,
  link?: SsoIdentity,
) {
  const value = seal(
    JSON.stringify({ userId, until: now.getTime() + PENDING_SIGN_IN_SECONDS * 1000, amr, upstream, link }),
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

/** The provider the first step went through, as the cookie was sealed with it (it holds none otherwise). */
const upstreamOf = (value: unknown): { upstream?: UpstreamSession } =>
  typeof value === "object" && value !== null && typeof (value as UpstreamSession).issuer === "string"
    ? { upstream: value as UpstreamSession }
    : {};

/** The account at the provider to link once the second factor is given, as the cookie was sealed with it. */
const linkOf = (value: unknown): { link?: SsoIdentity } => {
  const link = value as SsoIdentity | null | undefined;
  return typeof link?.issuer === "string" && typeof link.subject === "string" && typeof link.companyId === "string"
    ? { link: { issuer: link.issuer, subject: link.subject, companyId: link.companyId } }
    : {};
};

/**
 * The user whose first step was right, its methods (a password alone for a cookie without them), provider and
 * account to link, while the step lasts; undefined for none, a forged or an old cookie.
 */
export function pendingSignInUser(
  sealed: string | undefined,
  secretKey: string,
  now = new Date(),
): { userId: string; amr: AuthenticationMethod[]; upstream?: UpstreamSession; link?: SsoIdentity } | undefined {
  if (!sealed) return undefined;
  try {
    const { userId, until, amr, upstream, link } = JSON.parse(unseal(sealed, secretKey, "pending-sign-in")) as {
      userId: unknown;
      until: unknown;
      amr: unknown;
      upstream: unknown;
      link: unknown;
    };
    return typeof userId === "string" && typeof until === "number" && until > now.getTime()
      ? { userId, amr: parseAmr(JSON.stringify(amr ?? null)), ...upstreamOf(upstream), ...linkOf(link) }
      : undefined;
  } catch {
    return undefined;
  }
}

export const readPendingSignIn = (request: Request, publicUrl: string) =>
  readCookie(request, pendingSignInCookieName(publicUrl));
