/**
 * The languages the pages are shown in, each with its name in itself (for the language switch and the profile).
 * Adding a language: a messages/<code>.json file and one line here.
 */
export const LANGUAGE_NAMES = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  it: "Italiano",
  es: "Español",
  nl: "Nederlands",
  pl: "Polski",
} as const;

export type Locale = keyof typeof LANGUAGE_NAMES;
export const LOCALES = Object.keys(LANGUAGE_NAMES) as Locale[];
export const DEFAULT_LOCALE: Locale = "en";
/** Remembers the language the switch (or saving a preference) chose, for the browser session. */
export const LOCALE_COOKIE = "optigate_locale";

export function isLocale(value: string | undefined | null): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? "");
}

/** A stored or requested language as a page language: English where there is none or it is not one of ours. */
export function localeOr(value: string | null | undefined, fallback: Locale = DEFAULT_LOCALE): Locale {
  return isLocale(value) ? value : fallback;
}

/** A locale's messages (messages/<code>.json). */
export async function loadMessages(locale: Locale): Promise<typeof import("@/messages/en.json")> {
  return (await import(`../../messages/${locale}.json`)).default;
}
