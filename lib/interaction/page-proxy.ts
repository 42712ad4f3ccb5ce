/**
 * Runs before OptiGate's interaction pages (see proxy.ts): hands the page the CSRF cookie value (setting the cookie
 * when the browser has none yet) and the request's ui_locales, directly or from the authorization request the page
 * belongs to. A ui_locales choice is also kept in the language cookie for the rest of the flow.
 */
import { NextResponse, type NextRequest } from "next/server";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { serializeCookie } from "@/lib/http/cookies";
import { languageCookie } from "@/lib/i18n/language-switch";
import { supportedUiLocale } from "@/lib/i18n/resolve-locale";
import { authorizeParametersOf, safeLocalPath } from "@/lib/interaction/return-url";
import { CSRF_COOKIE } from "@/lib/session/csrf";

export const UI_LOCALES_HEADER = "x-optigate-ui-locales";
export const CSRF_COOKIE_HEADER = "x-optigate-csrf-cookie";

function uiLocalesOf(request: NextRequest): string | undefined {
  const params = request.nextUrl.searchParams;
  return params.get("ui_locales") ?? authorizeParametersOf(safeLocalPath(params.get("returnUrl")))?.get("ui_locales") ?? undefined;
}

export function interactionPageProxy(request: NextRequest): NextResponse {
  const headers = new Headers(request.headers);
  // Only this proxy may set these: never trust them from the browser.
  headers.delete(UI_LOCALES_HEADER);
  headers.delete(CSRF_COOKIE_HEADER);
  const uiLocales = uiLocalesOf(request);
  if (uiLocales) headers.set(UI_LOCALES_HEADER, uiLocales);
  const existingCsrf = request.cookies.get(CSRF_COOKIE)?.value;
  const csrf = existingCsrf ?? generateOpaqueToken();
  headers.set(CSRF_COOKIE_HEADER, csrf);

  const response = NextResponse.next({ request: { headers } });
  const secure = (process.env.PUBLIC_URL ?? "").startsWith("https:");
  if (!existingCsrf) response.headers.append("Set-Cookie", serializeCookie(CSRF_COOKIE, csrf, { secure }));
  const locale = supportedUiLocale(uiLocales);
  if (locale) response.headers.append("Set-Cookie", languageCookie(locale, process.env.PUBLIC_URL ?? ""));
  return response;
}
