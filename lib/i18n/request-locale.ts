/**
 * The page language for a plain Request (route handlers), by the same rules as the pages: pass the signed-in
 * user's preference where there is one, so that what a form mails is in the language its page was shown in. A form
 * of a sign-in that asked for a language (lib/i18n/sign-in-language.ts) answers in that language.
 */
import { readCookie } from "@/lib/http/cookies";
import { LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";
import { resolveLocale } from "@/lib/i18n/resolve-locale";
import { signInLanguageOf } from "@/lib/i18n/sign-in-language";

export function localeOfRequest(
  request: Request,
  { uiLocales, userPreference }: { uiLocales?: string | null; userPreference?: string | null } = {},
): Locale {
  return resolveLocale({
    uiLocales: uiLocales ?? signInLanguageOf(request),
    chosen: readCookie(request, LOCALE_COOKIE),
    userPreference,
    acceptLanguage: request.headers.get("accept-language"),
  });
}
