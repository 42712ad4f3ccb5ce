/**
 * The page language for a plain Request (route handlers), by the same rules as the pages: pass the signed-in
 * user's preference where there is one, so that what a form mails is in the language its page was shown in.
 */
import { readCookie } from "@/lib/http/cookies";
import { LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";
import { resolveLocale } from "@/lib/i18n/resolve-locale";

export function localeOfRequest(
  request: Request,
  { uiLocales, userPreference }: { uiLocales?: string | null; userPreference?: string | null } = {},
): Locale {
  return resolveLocale({
    uiLocales,
    chosen: readCookie(request, LOCALE_COOKIE),
    userPreference,
    acceptLanguage: request.headers.get("accept-language"),
  });
}
