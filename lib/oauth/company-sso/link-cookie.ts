/**
 * An account at a company's provider waiting to be linked to the existing OptiGate account with its address (issue
 * 46): kept while the person proves the existing account is theirs with its password. A sealed, HttpOnly cookie for
 * the login form's path only, good for 15 minutes; the provider's sign-in behind it was checked already.
 */
import { INTERACTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { expireCookie, isSecureOrigin, readCookie } from "@/lib/http/cookies";
import { FORMS } from "@/lib/http/paths";
import { sealedCookie, unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { SsoIdentity } from "@/lib/store/models/company-sso";

const COOKIE = "optigate_company_sso_link";
const PATH = FORMS.login;

export interface PendingSsoLink {
  identity: SsoIdentity;
  /** The existing account the address belongs to, and that address. */
  userId: string;
  email: string;
  /** The methods the provider reported and its session, for the session that follows the link. */
  amr: string[];
  sid?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

type Keys = { secretKey: string; publicUrl: string };

export const ssoLinkCookie = (link: PendingSsoLink, config: Keys) =>
  sealedCookie(COOKIE, link, { ...config, path: PATH, maxAgeSeconds: INTERACTION_LIFETIME_SECONDS });

export const endSsoLinkCookie = (publicUrl: string) =>
  expireCookie(COOKIE, { secure: isSecureOrigin(publicUrl), path: PATH });

/** The waiting link, or undefined when the cookie is missing, forged or older than its lifetime. */
export function readSsoLink(request: Request, secretKey: string, now = Date.now()): PendingSsoLink | undefined {
  const link = unsealedCookieValue<PendingSsoLink>(COOKIE, readCookie(request, COOKIE), secretKey);
  const age = link ? now - link.createdAt : -1;
  return link && age >= 0 && age <= INTERACTION_LIFETIME_SECONDS * 1000 ? link : undefined;
}
