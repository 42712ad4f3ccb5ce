/** The page language for a plain Request (route handlers), by the same rules as the pages. */
import { readCookie } from "@/lib/http/cookies";
import { LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";
import { resolveLocale } from "@/lib/i18n/resolve-locale";

export function localeOfRequest(request: Request, uiLocales?: string | null): Locale {
  return resolveLocale({
    uiLocales,
    chosen: readCookie(request, LOCALE_COOKIE),
    acceptLanguage: request.headers.get("accept-language"),
  });
}
