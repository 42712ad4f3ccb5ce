/**
 * Which accounts already signed in with a browser, as the browser itself keeps it: a cookie (a year, HttpOnly,
 * SameSite=Lax, Secure with the `__Host-` prefix over https) sealed under SECRET_KEY, holding a short hash of each
 * account's id, the latest first and at most KNOWN_BROWSER_ACCOUNTS of them. Nothing is stored on the server and no
 * device is fingerprinted: a browser without the cookie (a new one, a private window, cleared cookies) is new to every
 * account. Sealed, the cookie can neither be forged nor read back to the accounts it names; a SECRET_KEY rotation
 * keeps it while the older key is still listed.
 */
import { KNOWN_BROWSER_ACCOUNTS, KNOWN_BROWSER_DAYS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import { hostCookieName, readCookie } from "@/lib/http/cookies";
import { sealedCookie, unsealedCookieValue } from "@/lib/http/sealed-cookie";

const KNOWN_BROWSER_COOKIE = "optigate_browser";

const knownBrowserCookieName = (publicUrl: string) => hostCookieName(KNOWN_BROWSER_COOKIE, publicUrl);

/** An account as the cookie names it: 96 bits of its id's hash, enough to tell a handful of accounts apart. */
const accountMark = (userId: string) => hashToken(`known-browser:${userId}`).slice(0, 16);

/** The accounts the request's browser signed in to before, as marks; none for a missing or foreign cookie. */
export function knownAccountsOf(request: Request, config: { secretKey: string; publicUrl: string }): string[] {
  const name = knownBrowserCookieName(config.publicUrl);
  const value = unsealedCookieValue<unknown>(name, readCookie(request, name), config.secretKey);
  return Array.isArray(value) ? value.filter((mark): mark is string => typeof mark === "string") : [];
}

export const knowsAccount = (known: readonly string[], userId: string): boolean => known.includes(accountMark(userId));

/** The cookie with the account in front, its lifetime renewed; the accounts longest unseen drop out past the cap. */
export function rememberAccountCookie(
  known: readonly string[],
  userId: string,
  config: { secretKey: string; publicUrl: string },
): string {
  const mark = accountMark(userId);
  const accounts = [mark, ...known.filter((other) => other !== mark)].slice(0, KNOWN_BROWSER_ACCOUNTS);
  return sealedCookie(knownBrowserCookieName(config.publicUrl), accounts, {
    ...config,
    path: "/",
    maxAgeSeconds: KNOWN_BROWSER_DAYS * 86_400,
  });
}
