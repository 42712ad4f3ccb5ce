/** Writes the built-in scopes, with their texts in every language, to the `scopes` table; only changed rows are written. */
import type { Stores } from "@/lib/store/stores";
import { loadMessages, LOCALES } from "@/lib/i18n/locales";
import type { LocalizedText } from "@/lib/i18n/localized-text";
import { scopeDefinitions, type ScopeTextKey } from "@/lib/oauth/scopes";

export async function syncScopes(stores: Stores, apiScopePrefix: string): Promise<void> {
  const texts = await Promise.all(
    LOCALES.map(async (locale) => [locale, (await loadMessages(locale)).Scopes] as const),
  );
  const inEveryLanguage = (key: ScopeTextKey, part: "name" | "description"): string =>
    JSON.stringify(Object.fromEntries(texts.map(([locale, scopes]) => [locale, scopes[key][part]])) as LocalizedText);
  await stores.maintenance.saveScopes(
    scopeDefinitions(apiScopePrefix).map((scope) => ({
      name: scope.name,
      kind: scope.kind,
      displayNames: inEveryLanguage(scope.textKey, "name"),
      descriptions: inEveryLanguage(scope.textKey, "description"),
    })),
  );
}
