/**
 * Chooses the page language: `ui_locales` (space-separated, first supported wins; on a sign-in's pages also the one
 * it began with), then the language the switch chose (cookie), then the signed-in user's preference, then
 * Accept-Language with its q-values, then English. Region subtags fall back to their language (de-AT -> de).
 */
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n/locales";

export interface LocaleSources {
  uiLocales?: string | null;
  chosen?: string | null;
  userPreference?: string | null;
  acceptLanguage?: string | null;
}

function supportedLanguage(tag: string): Locale | undefined {
  const language = tag.trim().toLowerCase().split("-")[0];
  return isLocale(language) ? language : undefined;
}

/** The languages of an Accept-Language header, most preferred first; q=0 means "not this one". */
export function parseAcceptLanguage(header: string): string[] {
  return header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag !== "" && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The first supported language of a ui_locales value, if any. */
export function supportedUiLocale(uiLocales: string | null | undefined): Locale | undefined {
  for (const tag of (uiLocales ?? "").split(" ")) {
    const locale = tag ? supportedLanguage(tag) : undefined;
    if (locale) return locale;
  }
  return undefined;
}

export function resolveLocale(sources: LocaleSources): Locale {
  const candidates = [
    ...(sources.uiLocales ?? "").split(" "),
    sources.chosen ?? "",
    sources.userPreference ?? "",
    ...parseAcceptLanguage(sources.acceptLanguage ?? ""),
  ];
  for (const candidate of candidates) {
    if (candidate === "*") continue;
    const locale = candidate ? supportedLanguage(candidate) : undefined;
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
