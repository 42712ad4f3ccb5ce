import { describe, expect, it } from "vitest";
import { parseAcceptLanguage, resolveLocale } from "@/lib/i18n/resolve-locale";

describe("parseAcceptLanguage", () => {
  it("orders by q-value, keeps header order on ties and drops q=0", () => {
    expect(parseAcceptLanguage("fr;q=0.5, de-AT, en;q=0.8, es;q=0")).toEqual(["de-AT", "en", "fr"]);
    expect(parseAcceptLanguage("")).toEqual([]);
  });
});

describe("resolveLocale", () => {
  it("prefers ui_locales, first supported one wins", () => {
    expect(resolveLocale({ uiLocales: "sv de en", acceptLanguage: "en" })).toBe("de");
  });
  it("then the chosen language, then the user's preference, then Accept-Language", () => {
    expect(resolveLocale({ uiLocales: "sv", chosen: "de", userPreference: "en", acceptLanguage: "en" })).toBe("de");
    expect(resolveLocale({ userPreference: "de", acceptLanguage: "en" })).toBe("de");
    expect(resolveLocale({ acceptLanguage: "sv-SE, de-CH;q=0.9, en;q=0.8" })).toBe("de");
    expect(resolveLocale({ acceptLanguage: "de;q=0.1, en;q=0.9" })).toBe("en");
  });
  it.each([
    ["fr-CH", "fr"],
    ["de-AT", "de"],
    ["it-IT", "it"],
    ["es-419", "es"],
    ["nl-BE", "nl"],
    ["pl-PL", "pl"],
    ["FR", "fr"],
  ])("takes the language of the regional tag %s: %s", (tag, locale) => {
    expect(resolveLocale({ uiLocales: tag })).toBe(locale);
    expect(resolveLocale({ acceptLanguage: `${tag}, en;q=0.5` })).toBe(locale);
  });
  it("falls back to English", () => {
    expect(resolveLocale({})).toBe("en");
    expect(resolveLocale({ uiLocales: "ja", acceptLanguage: "*" })).toBe("en");
  });
});
