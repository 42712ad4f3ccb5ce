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
    expect(resolveLocale({ uiLocales: "fr de en", acceptLanguage: "en" })).toBe("de");
  });
  it("then the chosen language, then the user's preference, then Accept-Language", () => {
    expect(resolveLocale({ uiLocales: "fr", chosen: "de", userPreference: "en", acceptLanguage: "en" })).toBe("de");
    expect(resolveLocale({ userPreference: "de", acceptLanguage: "en" })).toBe("de");
    expect(resolveLocale({ acceptLanguage: "fr-FR, de-CH;q=0.9, en;q=0.8" })).toBe("de");
    expect(resolveLocale({ acceptLanguage: "de;q=0.1, en;q=0.9" })).toBe("en");
  });
  it("falls back to English", () => {
    expect(resolveLocale({})).toBe("en");
    expect(resolveLocale({ uiLocales: "fr", acceptLanguage: "*" })).toBe("en");
  });
});
