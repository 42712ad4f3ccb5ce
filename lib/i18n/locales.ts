/**
 * The languages the pages are shown in. Adding one: a messages/<code>.json file, and its code and name here.
 */
export const LOCALES = ["en", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
/** Each language's name in itself, for the language switch and the profile. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", de: "Deutsch" };
/** Remembers the language a flow or the language switch chose. */
export const LOCALE_COOKIE = "optigate_locale";

export function isLocale(value: string | undefined | null): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? "");
}
