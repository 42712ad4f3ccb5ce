/**
 * The languages the pages are shown in. Adding one: a messages/<code>.json file and its code here.
 */
export const LOCALES = ["en", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
/** Remembers the language a flow or the language switch chose. */
export const LOCALE_COOKIE = "optigate_locale";

export function isLocale(value: string | undefined | null): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? "");
}
