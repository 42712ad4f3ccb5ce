/**
 * The token of a mailed link (/password/reset, /email/confirm, a sign-in notice's /login/not-me) leaves the address
 * bar at once: the pages' proxy (for /login/not-me its own handler) moves it into an HttpOnly cookie for that page and
 * redirects to the page without it, so that it stays out of the browser's history, any Referer and any access log.
 * The page and its form read it from the cookie.
 *
 * Where a reset leads afterwards (the application's sign-in that was under way) stays with the browser that asked for
 * the mail, not with the link: whoever asks for a reset of somebody else's address cannot choose where they land.
 */
import { ENDPOINTS, PAGES } from "@/lib/http/paths";
import { MAX_RETURN_URL_LENGTH } from "@/lib/config/policy";
import { expireCookie, hostCookieName, isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import { safeLocalPath } from "@/lib/http/local-path";

export const LINK_PAGES = {
  [PAGES.resetPassword]: "optigate_reset_link",
  [PAGES.confirmEmail]: "optigate_email_link",
  [ENDPOINTS.notMe]: "optigate_not_me_link",
} as const;

export type LinkPage = keyof typeof LINK_PAGES;

/** What a link's token looks like (43 base64url characters); anything else is no link of ours. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** As long as the page may stay open before its form is sent; the link's own expiry is checked on the server. */
const LINK_COOKIE_SECONDS = 3600;

export const isLinkPage = (pathname: string): pathname is LinkPage => pathname in LINK_PAGES;

/** The cookie of a link's page, with the `__Host-` prefix over https. */
export const linkCookieName = (page: LinkPage, publicUrl: string) => hostCookieName(LINK_PAGES[page], publicUrl);

export function linkTokenCookie(page: LinkPage, token: string, publicUrl: string): string {
  return serializeCookie(linkCookieName(page, publicUrl), token, {
    secure: isSecureOrigin(publicUrl),
    maxAgeSeconds: LINK_COOKIE_SECONDS,
  });
}

export function expireLinkTokenCookie(page: LinkPage, publicUrl: string): string {
  return expireCookie(linkCookieName(page, publicUrl), { secure: isSecureOrigin(publicUrl) });
}

/** The way back after a reset: `optigate_reset_return`, with the `__Host-` prefix over https. */
export const resetReturnCookieName = (publicUrl: string) => hostCookieName("optigate_reset_return", publicUrl);
/** Longer than a reset link lasts, so that the way back is still there when the link is used. */
const RESET_RETURN_SECONDS = 2 * 3600;

/** The way back after a reset, kept by the browser that asked for it; none for a path that is not local or too long. */
export function resetReturnCookie(returnUrl: string | undefined, publicUrl: string): string | undefined {
  const local = safeLocalPath(returnUrl);
  if (!local || local.length > MAX_RETURN_URL_LENGTH) return undefined;
  return serializeCookie(resetReturnCookieName(publicUrl), local, {
    secure: isSecureOrigin(publicUrl),
    maxAgeSeconds: RESET_RETURN_SECONDS,
  });
}
