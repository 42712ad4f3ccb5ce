/** Every language's messages are whole: the keys, arguments and plurals of English, and translated. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";
import { countCategories, messageProblems } from "@/tests/helpers/message-comparison";

const messagesDirectory = path.resolve(import.meta.dirname, "../../../messages");
const read = (locale: string) => JSON.parse(readFileSync(path.join(messagesDirectory, `${locale}.json`), "utf8"));
const english = read("en");

/**
 * Texts a language writes as English does: the brand, and words the trade uses unchanged in that language. Anything
 * else identical to English is an untranslated text.
 */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  en: [],
  de: ["Name", "Status", "Clients", "Client", "Details", "Scopes", "Codes", "Revision", "Administrator"].concat([
    "Browser",
    "Passkey",
  ]),
  fr: ["Actions", "Active", "active", "Applications", "Articles", "Client", "Clients", "Codes", "Description"].concat([
    "Invitation",
    "Menu",
    "Scopes",
    "Secret",
    "Secrets",
    "Session",
  ]),
  it: ["Browser", "Client", "Menu", "Passkey", "Password", "password", "no"],
  es: ["Error", "no"],
  nl: ["Browser", "Client", "Clients", "Codes", "Details", "Menu", "Scopes", "Status", "Subject"],
  pl: ["Administrator", "Menu", "Operator", "Status"],
};
const EVERYWHERE = ["OptiGate", "Code", "Id", "Passkeys"];

describe("the languages", () => {
  it("are exactly the message files, each named in its own language", () => {
    const files = readdirSync(messagesDirectory).map((file) => file.replace(/\.json$/, ""));
    expect([...LOCALES].sort()).toEqual(files.sort());
    for (const locale of LOCALES) {
      const ownName = new Intl.DisplayNames([locale], { type: "language" }).of(locale);
      expect(LANGUAGE_NAMES[locale].toLowerCase()).toBe(ownName?.toLowerCase());
    }
  });

  it.each(LOCALES.map((locale) => [locale]))(
    "%s has every English message, translated, with its arguments",
    (locale) => {
      const allowed = [...EVERYWHERE, ...(SAME_AS_ENGLISH[locale] ?? [])];
      expect(messageProblems(locale, english, read(locale), allowed)).toEqual([]);
    },
  );

  it("lists words as English only where a language really uses them", () => {
    for (const [locale, words] of Object.entries(SAME_AS_ENGLISH)) {
      const texts = new Set(flattenedTexts(read(locale)));
      expect(
        words.filter((word) => !texts.has(word)),
        locale,
      ).toEqual([]);
    }
  });
});

function flattenedTexts(messages: object): string[] {
  return Object.values(messages).flatMap((value) => (typeof value === "string" ? [value] : flattenedTexts(value)));
}

describe("messageProblems", () => {
  const source = {
    A: {
      greeting: "Hello {name}",
      files: "{count, plural, one {# file} other {# files}}",
      link: "See <more>more</more>",
    },
    B: "Status",
  };
  const whole = {
    A: {
      greeting: "Cześć {name}",
      files: "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",
      link: "Zobacz <more>więcej</more>",
    },
    B: "Stan",
  };

  it("finds nothing in whole messages", () => {
    expect(messageProblems("pl", source, whole, [])).toEqual([]);
  });

  it("finds missing and extra keys", () => {
    const { B: _, ...withoutB } = whole;
    expect(messageProblems("pl", source, { ...withoutB, C: "x" }, [])).toEqual(["B: missing", "C: not in English"]);
  });

  it("finds a message that does not parse, a renamed argument, a lost tag and a lost plural category", () => {
    const broken = {
      A: { greeting: "Cześć {name", files: "{count, plural, one {# plik} other {# pliku}}", link: "Zobacz więcej" },
      B: "Stan {state}",
    };
    const problems = messageProblems("pl", source, broken, []);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^A\.greeting: does not parse/);
    expect(problems[1]).toBe("A.files: the plural of count lacks few, many");
    expect(problems[2]).toBe("A.link: arguments  instead of <more>");
    expect(problems[3]).toBe("B: arguments {state} instead of ");
  });

  it("finds text left in English unless the allow-list names it", () => {
    const untranslated = { ...whole, B: "Status" };
    expect(messageProblems("pl", source, untranslated, [])).toEqual(['B: still English ("Status")']);
    expect(messageProblems("pl", source, untranslated, ["Status"])).toEqual([]);
    const label = { ...whole, B: "Status:" };
    expect(messageProblems("pl", { ...source, B: "Status:" }, label, ["Status"])).toEqual([]);
  });

  it("knows the plural categories of each language's counts", () => {
    expect([...countCategories("pl")].sort()).toEqual(["few", "many", "one"]);
    expect([...countCategories("fr")].sort()).toEqual(["one", "other"]);
    expect([...countCategories("de")].sort()).toEqual(["one", "other"]);
  });
});
