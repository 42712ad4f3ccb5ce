/** Picks the text for a language from a language map (client names, descriptions, scope texts). */

/** Texts by language tag (client names, descriptions, scope texts). */
export type LocalizedText = Record<string, string>;

/** The key under which text without a language tag is kept in a LocalizedText. */
export const DEFAULT_LANGUAGE_KEY = "default";

/** The language's own text, else a regional one of it (`fr-ch` for fr), else the untagged, English or any text. */
export function localizedText(text: LocalizedText, locale: string, fallback = ""): string {
  const regional = Object.keys(text).find((tag) => tag.startsWith(`${locale}-`));
  return (
    text[locale] ??
    (regional && text[regional]) ??
    text[DEFAULT_LANGUAGE_KEY] ??
    text.en ??
    Object.values(text)[0] ??
    fallback
  );
}
