/**
 * GET /language?locale=de&returnTo=/path: the visible language switch. Remembers the choice for the rest of the
 * browser session (the language cookie) and goes back to the page it came from (local paths only). The person's own
 * choice ends the language a sign-in's ui_locales asked for (lib/i18n/sign-in-language.ts).
 */
import { isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { endingSignInLanguage } from "@/lib/i18n/sign-in-language";
import { safeLocalPath } from "@/lib/http/local-path";

export function handleLanguageSwitch(request: Request, { config }: { config: { publicUrl: string } }): Response {
  const publicUrl = config.publicUrl;
  const params = new URL(request.url).searchParams;
  const locale = params.get("locale");
  const headers = new Headers({ Location: safeLocalPath(params.get("returnTo")) ?? "/", "Cache-Control": "no-store" });
  if (!isLocale(locale)) return new Response(null, { status: 303, headers });
  headers.append("Set-Cookie", languageCookie(locale, publicUrl));
  return endingSignInLanguage(request, new Response(null, { status: 303, headers }), publicUrl);
}

/** A browser-session cookie: the choice lasts until the browser is closed. */
export function languageCookie(locale: string, publicUrl: string): string {
  return serializeCookie(LOCALE_COOKIE, locale, { secure: isSecureOrigin(publicUrl), httpOnly: false });
}
