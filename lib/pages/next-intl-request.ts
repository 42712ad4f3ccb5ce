/**
 * next-intl's per-request configuration: the page language (ui_locales of the flow, the language chosen in this
 * browser session, the signed-in user's preference, Accept-Language, English), and its messages.
 */
import "server-only";
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { loadMessages, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { resolveLocale } from "@/lib/i18n/resolve-locale";
import { currentActor } from "@/lib/pages/current-actor";
import { UI_LOCALES_HEADER } from "@/lib/pages/page-proxy";

export default getRequestConfig(async () => {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  const actor = await currentActor();
  const locale = resolveLocale({
    uiLocales: headerStore.get(UI_LOCALES_HEADER),
    chosen: cookieStore.get(LOCALE_COOKIE)?.value,
    userPreference:
      actor.kind === "user" || actor.kind === "second_factor_owed" ? actor.session.user.preferredLanguage : null,
    acceptLanguage: headerStore.get("accept-language"),
  });
  return { locale, messages: await loadMessages(locale) };
});
