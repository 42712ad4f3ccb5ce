/**
 * Runs before OptiGate's pages (see proxy.ts): hands the page the CSRF cookie value (setting the cookie when the
 * browser has none, or one that is no value of ours) and the request's ui_locales, directly or from the page it
 * returns to (an authorization request, a mailed link's page). On the sign-in pages ui_locales is kept for the rest of the sign-in; a page
 * outside the sign-in ends it (lib/i18n/sign-in-language.ts). The one-time cookies a form left for the page
 * (lib/http/flash-cookies.ts) are handed on and deleted.
 */
import { NextResponse, type NextRequest } from "next/server";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { expireCookie, isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import { FLASH_COOKIES, flashHeader } from "@/lib/http/flash-cookies";
import { expireLinkTokenCookie, isLinkPage, LINK_TOKEN, linkTokenCookie } from "@/lib/http/link-token-cookies";
import { strictTransportSecurity } from "@/lib/http/page-security-headers";
import type { Locale } from "@/lib/i18n/locales";
import { supportedUiLocale } from "@/lib/i18n/resolve-locale";
import {
  endSignInLanguageCookie,
  SIGN_IN_LOCALE_COOKIE,
  signInLanguageCookie,
  signInLanguageOf,
} from "@/lib/i18n/sign-in-language";
import { safeLocalPath } from "@/lib/http/local-path";
import { NUL_REFUSAL, urlHasNul } from "@/lib/http/nul-character";
import { CSRF_COOKIE_VALUE, csrfCookieName } from "@/lib/session/csrf";

export const UI_LOCALES_HEADER = "x-optigate-ui-locales";
export const CSRF_COOKIE_HEADER = "x-optigate-csrf-cookie";

function uiLocalesOf(request: NextRequest): string | undefined {
  const params = request.nextUrl.searchParams;
  const returnUrl = safeLocalPath(params.get("returnUrl"));
  return (
    params.get("ui_locales") ??
    (returnUrl ? new URL(returnUrl, request.nextUrl.origin).searchParams.get("ui_locales") : null) ??
    undefined
  );
}

const SIGN_IN_PAGE =
  /^\/(?:login(?:\/second-factor)?|consent|device|invitation|password\/(?:forgot|reset)|email\/confirm)$/;
const PAGE = /^\/(?:signout|(?:portal|admin)(?:\/.*)?)$/;

/**
 * The pages this proxy prepares: sign-in, consent, a device's sign-in, sign-out, invitations, the mailed links' pages,
 * the portal and the operator pages.
 */
export const isInteractionPage = (pathname: string) => SIGN_IN_PAGE.test(pathname) || PAGE.test(pathname);

/**
 * The page's language from ui_locales and what the proxy's answer sets: a sign-in page keeps the language its
 * sign-in asked for; any other page takes only its own, and ends a sign-in's that it does not carry on.
 */
function pageUiLocale(request: NextRequest, publicUrl: string): { locale?: Locale; cookie?: string } {
  // Only a language OptiGate speaks goes on: ui_locales is the caller's text, and a header takes no such characters as "€".
  const asked = supportedUiLocale(uiLocalesOf(request));
  const kept = signInLanguageOf(request);
  if (SIGN_IN_PAGE.test(request.nextUrl.pathname))
    return {
      locale: asked ?? kept,
      cookie: asked && asked !== kept ? signInLanguageCookie(asked, publicUrl) : undefined,
    };
  const ending = !asked && request.cookies.has(SIGN_IN_LOCALE_COOKIE);
  return { locale: asked, cookie: ending ? endSignInLanguageCookie(publicUrl) : undefined };
}

/** A mailed link's page opened with its token: the token goes into the page's cookie, the browser to the bare page. */
function takeLinkToken(request: NextRequest, publicUrl: string): NextResponse | undefined {
  const { pathname, searchParams } = request.nextUrl;
  const token = searchParams.get("token");
  if (token === null || !isLinkPage(pathname)) return undefined;
  const rest = new URLSearchParams(searchParams);
  rest.delete("token");
  const query = rest.size > 0 ? `?${rest}` : "";
  const response = NextResponse.redirect(new URL(`${pathname}${query}`, publicUrl || request.nextUrl.origin), 303);
  response.headers.set("Cache-Control", "no-store");
  response.headers.append(
    "Set-Cookie",
    LINK_TOKEN.test(token) ? linkTokenCookie(pathname, token, publicUrl) : expireLinkTokenCookie(pathname, publicUrl),
  );
  return response;
}

export function interactionPageProxy(request: NextRequest): NextResponse {
  if (urlHasNul(request.url))
    return new NextResponse(`${NUL_REFUSAL}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  const publicUrl = process.env.PUBLIC_URL ?? "";
  const linkRedirect = takeLinkToken(request, publicUrl);
  if (linkRedirect) return linkRedirect;
  const headers = new Headers(request.headers);
  // Only this proxy may set these: never trust them from the browser.
  headers.delete(UI_LOCALES_HEADER);
  headers.delete(CSRF_COOKIE_HEADER);
  const flashed = FLASH_COOKIES.filter(({ name }) => {
    headers.delete(flashHeader(name));
    const value = request.cookies.get(name)?.value;
    if (value && /^[\w.-]+$/.test(value)) headers.set(flashHeader(name), value);
    return value !== undefined;
  });
  const language = pageUiLocale(request, publicUrl);
  if (language.locale) headers.set(UI_LOCALES_HEADER, language.locale);
  const cookieName = csrfCookieName(publicUrl);
  const existingCsrf = request.cookies.get(cookieName)?.value;
  const keptCsrf = existingCsrf !== undefined && CSRF_COOKIE_VALUE.test(existingCsrf);
  const csrf = keptCsrf ? existingCsrf : generateOpaqueToken();
  headers.set(CSRF_COOKIE_HEADER, csrf);

  const response = NextResponse.next({ request: { headers } });
  if (!keptCsrf)
    response.headers.append("Set-Cookie", serializeCookie(cookieName, csrf, { secure: isSecureOrigin(publicUrl) }));
  if (language.cookie) response.headers.append("Set-Cookie", language.cookie);
  for (const { name, path } of flashed)
    response.headers.append("Set-Cookie", expireCookie(name, { secure: isSecureOrigin(publicUrl), path }));
  const hsts = strictTransportSecurity(publicUrl);
  if (hsts) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}
