/** Picks the text for a language from a language map (client names, descriptions, scope texts). */
import { DEFAULT_LANGUAGE_KEY } from "@/lib/admin/client-metadata";
import type { LocalizedText } from "@/lib/oauth/scopes";

export function localizedText(text: LocalizedText, locale: string, fallback = ""): string {
  return text[locale] ?? text[DEFAULT_LANGUAGE_KEY] ?? text.en ?? Object.values(text)[0] ?? fallback;
}
