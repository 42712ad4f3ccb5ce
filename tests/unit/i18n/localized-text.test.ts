import { describe, expect, it } from "vitest";
import { localizedText } from "@/lib/i18n/localized-text";

describe("localizedText", () => {
  const names = { default: "Lens shop", fr: "Boutique de verres", "it-ch": "Negozio di lenti", de: "Glasladen" };

  it("takes the language's own text, else a regional one, else the untagged one", () => {
    expect(localizedText(names, "fr")).toBe("Boutique de verres");
    expect(localizedText(names, "it")).toBe("Negozio di lenti");
    expect(localizedText(names, "pl")).toBe("Lens shop");
  });

  it("falls back to English, then to any text, then to the fallback", () => {
    expect(localizedText({ en: "Lens shop", nl: "Glazenwinkel" }, "es")).toBe("Lens shop");
    expect(localizedText({ nl: "Glazenwinkel" }, "es")).toBe("Glazenwinkel");
    expect(localizedText({}, "es", "demo-web")).toBe("demo-web");
  });
});
