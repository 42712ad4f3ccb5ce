/** Picks the text for a language from a language map (client names, descriptions, scope texts). */

/** Texts by language tag (client names, descriptions, scope texts). */
export type LocalizedText = Record<string, string>;

/** The key under which text without a language tag is kept in a LocalizedText. */
export const DEFAULT_LANGUAGE_KEY = "default";

export function localizedText(text: LocalizedText, locale: string, fallback = ""): string {
  return text[locale] ?? text[DEFAULT_LANGUAGE_KEY] ?? text.en ?? Object.values(text)[0] ?? fallback;
}
