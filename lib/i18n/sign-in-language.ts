/**
 * The sign-in language: the language `ui_locales` asked for, kept in its own browser-session cookie for the pages of
 * the sign-in it came with (a failed password, a second factor, consent), whose addresses do not all carry it. The
 * sign-in ends when its authorization request answers or a page outside it is shown; from then on the person's own
 * choice (the language switch) or preference applies again (docs/languages.md).
 */
import { expireCookie, isSecureOrigin, readCookie, serializeCookie } from "@/lib/http/cookies";
import { isLocale, type Locale } from "@/lib/i18n/locales";

export const SIGN_IN_LOCALE_COOKIE = "optigate_sign_in_locale";

export const signInLanguageCookie = (locale: Locale, publicUrl: string) =>
  serializeCookie(SIGN_IN_LOCALE_COOKIE, locale, { secure: isSecureOrigin(publicUrl) });

export const endSignInLanguageCookie = (publicUrl: string) =>
  expireCookie(SIGN_IN_LOCALE_COOKIE, { secure: isSecureOrigin(publicUrl) });

/** The language of the sign-in under way in this browser, if it asked for one of ours. */
export function signInLanguageOf(request: Request): Locale | undefined {
  const kept = readCookie(request, SIGN_IN_LOCALE_COOKIE);
  return isLocale(kept) ? kept : undefined;
}

/** `response` ending the sign-in language of `request`, if it had one. */
export function endingSignInLanguage(request: Request, response: Response, publicUrl: string): Response {
  if (readCookie(request, SIGN_IN_LOCALE_COOKIE) === undefined) return response;
  // A copy: a redirect made with Response.redirect has immutable headers.
  const ended = new Response(response.body, response);
  ended.headers.append("Set-Cookie", endSignInLanguageCookie(publicUrl));
  return ended;
}
