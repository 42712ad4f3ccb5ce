/** next-intl's per-request configuration: the page language from the request, and its messages. */
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import { UI_LOCALES_HEADER } from "@/lib/interaction/page-proxy";
import { resolveLocale } from "@/lib/i18n/resolve-locale";

export default getRequestConfig(async () => {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  const locale = resolveLocale({
    uiLocales: headerStore.get(UI_LOCALES_HEADER),
    chosen: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerStore.get("accept-language"),
  });
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default };
});
