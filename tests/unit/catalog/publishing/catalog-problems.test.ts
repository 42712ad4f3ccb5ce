/** Catalog file problems in the reader's language: the upload page in German, the CLI and logs in English. */
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import german from "@/messages/de.json";
import english from "@/messages/en.json";
import {
  englishProblemText,
  invalidValue,
  problemText,
  type CatalogProblemKey,
} from "@/lib/catalog/publishing/catalog-problems";

const inGerman = createTranslator({ locale: "de", messages: german, namespace: "CatalogProblems" });
const germanText = (problem: Parameters<typeof englishProblemText>[0]) =>
  problemText(problem, (key, values) => inGerman(key, values));

describe("catalog problems", () => {
  it("renders a value's problem inside its element's, in English and in German", () => {
    const problem = invalidValue("PurchasePrice", { key: "notAmount", values: { value: "10,90" } });
    expect(englishProblemText(problem)).toBe(
      '<PurchasePrice> "10,90" is not an amount such as 12.50 (at most 7 digits before and 2 after the point)',
    );
    expect(germanText(problem)).toBe(
      "<PurchasePrice>: „10,90“ ist kein Betrag wie 12.50 (höchstens 7 Stellen vor und 2 nach dem Punkt)",
    );
  });

  it("counts what is missing in each language", () => {
    const missing = (min: number) => ({
      key: "missingChild" as const,
      values: { parent: "Articles", min, child: "Article" },
    });
    expect(englishProblemText(missing(1))).toBe("<Articles> needs a <Article>");
    expect(germanText(missing(2))).toBe("<Articles> braucht mindestens 2 <Article>");
  });

  it.each(Object.keys(english.CatalogProblems) as CatalogProblemKey[])(
    "%s has a German text that names the same values as the English one",
    (key) => {
      // The names in braces, not a plural's branches ("one {a}").
      const names = (text: string) => [...text.matchAll(/(?<!(?:one|other) )\{(\w+)/g)].map((match) => match[1]).sort();
      expect(names(german.CatalogProblems[key])).toEqual(names(english.CatalogProblems[key]));
      expect(german.CatalogProblems[key]).not.toBe(english.CatalogProblems[key]);
    },
  );
});
