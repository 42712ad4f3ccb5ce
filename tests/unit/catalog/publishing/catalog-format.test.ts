/** The master catalog format's simple types, the article fields they fill, and each element's attributes. */
import { describe, expect, it } from "vitest";
import {
  ARTICLE_VALUES,
  code,
  comment,
  country,
  customerGroup,
  date,
  flag,
  format,
  formatVersion,
  language,
  readAttributes,
  text,
  ValueError,
  type ArticleDraft,
} from "@/lib/catalog/publishing/catalog-format";
import { englishProblemText } from "@/lib/catalog/publishing/catalog-problems";
import { thrown } from "../../../helpers/thrown";

const CODE = "a code of 1 to 64 letters, digits, '.', '_' or '-'";
const AMOUNT = "is not an amount such as 12.50 (at most 7 digits before and 2 after the point)";
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** The fields an article child element sets, from an empty draft. */
function articleValues(element: string, raw: string): ArticleDraft["values"] {
  const draft: ArticleDraft = { line: 1, attributes: null, values: {} };
  ARTICLE_VALUES[element](draft, raw);
  return draft.values;
}

describe("simple types: accepted values, whitespace collapsed", () => {
  it.each<[string, (raw: string) => unknown, string, unknown]>([
    ["code", code, "ACME_lens-2.0", "ACME_lens-2.0"],
    ["code", code, "\n\t ACME \r\n", "ACME"],
    ["code", code, "c".repeat(64), "c".repeat(64)],
    ["country", country, " DE ", "DE"],
    ["language", language, "de", "de"],
    ["formatVersion", formatVersion, "2.1", "2.1"],
    ["formatVersion", formatVersion, "v".repeat(16), "v".repeat(16)],
    ["format", format, " SPECTARIS\n", "SPECTARIS"],
    ["text(5)", text(5), "  a \n\t b  ", "a b"],
    ["text(5)", text(5), "abcde", "abcde"],
    ["comment", comment, "  kept\n as  written ", "  kept\n as  written "],
    ["comment", comment, "c".repeat(500), "c".repeat(500)],
    ["comment", comment, "", ""],
    ["date", date, "2026-01-31", day("2026-01-31")],
    ["date", date, " 2024-02-29\n", day("2024-02-29")],
    ["customerGroup", customerGroup, "0", 0],
    ["customerGroup", customerGroup, " 999999 ", 999999],
    ["customerGroup", customerGroup, "007", 7],
    ["flag", flag, "true", true],
    ["flag", flag, " 1 ", true],
    ["flag", flag, "false", false],
    ["flag", flag, "0", false],
  ])("%s of %j", (_, type, raw, value) => {
    expect(type(raw)).toEqual(value);
  });
});

describe("simple types: refusals", () => {
  it.each<[string, (raw: string) => unknown, string, string]>([
    ["code", code, "", `"" is not ${CODE}`],
    ["code", code, "a b", `"a b" is not ${CODE}`],
    ["code", code, "Brillen/Gläser", `"Brillen/Gläser" is not ${CODE}`],
    ["code", code, "c".repeat(65), `"${"c".repeat(65)}" is not ${CODE}`],
    ["country", country, "de", '"de" is not a two-letter country code in capitals, such as DE'],
    ["country", country, "DEU", '"DEU" is not a two-letter country code in capitals, such as DE'],
    ["language", language, "DE", '"DE" is not a two-letter language code in small letters, such as de'],
    ["language", language, "deu", '"deu" is not a two-letter language code in small letters, such as de'],
    ["formatVersion", formatVersion, "2.1-beta", '"2.1-beta" is not a format version such as 2.1'],
    ["formatVersion", formatVersion, "v".repeat(17), `"${"v".repeat(17)}" is not a format version such as 2.1`],
    ["format", format, "spectaris", '"spectaris" is not a supported format (SPECTARIS)'],
    ["format", format, "GAEB", '"GAEB" is not a supported format (SPECTARIS)'],
    ["text(5)", text(5), "", "must not be empty"],
    ["text(5)", text(5), " \n\t ", "must not be empty"],
    ["text(5)", text(5), "abcdef", "is longer than 5 characters"],
    ["comment", comment, "c".repeat(501), "is longer than 500 characters"],
    ["date", date, "2026-02-30", '"2026-02-30" is not a date in the form YYYY-MM-DD'],
    ["date", date, "2025-02-29", '"2025-02-29" is not a date in the form YYYY-MM-DD'],
    ["date", date, "2026-1-31", '"2026-1-31" is not a date in the form YYYY-MM-DD'],
    ["date", date, "31.01.2026", '"31.01.2026" is not a date in the form YYYY-MM-DD'],
    ["date", date, "2026-01-31T12:00:00Z", '"2026-01-31T12:00:00Z" is not a date in the form YYYY-MM-DD'],
    ["date", date, "", '"" is not a date in the form YYYY-MM-DD'],
    ["customerGroup", customerGroup, "1000000", '"1000000" is not a customer group number (0 to 999999)'],
    ["customerGroup", customerGroup, "-1", '"-1" is not a customer group number (0 to 999999)'],
    ["customerGroup", customerGroup, "1.0", '"1.0" is not a customer group number (0 to 999999)'],
    ["customerGroup", customerGroup, "", '"" is not a customer group number (0 to 999999)'],
    ["flag", flag, "yes", '"yes" is not true or false'],
    ["flag", flag, "TRUE", '"TRUE" is not true or false'],
    ["flag", flag, "", '"" is not true or false'],
  ])("%s of %j: %s", (_, type, raw, message) => {
    expect(thrown(ValueError, () => type(raw)).message).toBe(message);
  });
});

describe("ARTICLE_VALUES: an article's child elements as its fields", () => {
  it.each([
    ["Name", "  Progressive \n lens ", { genericName: "Progressive lens" }],
    ["Name", "n".repeat(200), { genericName: "n".repeat(200) }],
    ["PurchasePrice", "12.50", { purchasePriceCents: 1250 }],
    ["PurchasePrice", "12.5", { purchasePriceCents: 1250 }],
    ["PurchasePrice", "12", { purchasePriceCents: 1200 }],
    ["PurchasePrice", "0.05", { purchasePriceCents: 5 }],
    ["PurchasePrice", "0", { purchasePriceCents: 0 }],
    ["PurchasePrice", " 9999999.99 ", { purchasePriceCents: 999_999_999 }],
    ["RetailPrice", "19.99", { retailPriceCents: 1999 }],
    ["StartDate", "2026-03-01", { startDate: day("2026-03-01") }],
    ["EndDate", "2026-12-31", { endDate: day("2026-12-31") }],
  ])("<%s> %j", (element, raw, values) => {
    expect(articleValues(element, raw)).toEqual(values);
  });

  it.each([
    ["Name", "", "must not be empty"],
    ["Name", "n".repeat(201), "is longer than 200 characters"],
    ["PurchasePrice", "12.505", `"12.505" ${AMOUNT}`],
    ["PurchasePrice", "10000000", `"10000000" ${AMOUNT}`],
    ["PurchasePrice", "-1.00", `"-1.00" ${AMOUNT}`],
    ["PurchasePrice", "1,50", `"1,50" ${AMOUNT}`],
    ["PurchasePrice", ".50", `".50" ${AMOUNT}`],
    ["PurchasePrice", "12.", `"12." ${AMOUNT}`],
    ["RetailPrice", "EUR 5", `"EUR 5" ${AMOUNT}`],
    ["StartDate", "01.03.2026", '"01.03.2026" is not a date in the form YYYY-MM-DD'],
    ["EndDate", "2026-13-01", '"2026-13-01" is not a date in the form YYYY-MM-DD'],
  ])("refuses <%s> %j: %s", (element, raw, message) => {
    expect(thrown(ValueError, () => articleValues(element, raw)).message).toBe(message);
  });
});

describe("readAttributes", () => {
  const catalog = {
    supplierID: "S1",
    catalogID: "catalog.xml",
    resourceKey: "K1",
    name: "Lenses",
    language: "de",
    format: "SPECTARIS",
    formatVersion: "2.1",
  };

  it.each<[string, string, Record<string, string>, Record<string, string>, string[]]>([
    ["all required attributes", "Catalog", catalog, catalog, []],
    [
      "optional attributes",
      "Revision",
      { validStartDate: "2026-01-01", validEndDate: "2026-12-31", comment: "c" },
      { validStartDate: "2026-01-01", validEndDate: "2026-12-31", comment: "c" },
      [],
    ],
    [
      "an empty xmlns and schema hints, which are dropped",
      "Article",
      {
        articleNumber: "A1",
        customerGroup: "0",
        xmlns: "",
        "xmlns:xsi": "x",
        "xsi:noNamespaceSchemaLocation": "c.xsd",
      },
      { articleNumber: "A1", customerGroup: "0" },
      [],
    ],
    [
      "a namespace",
      "Catalog",
      { ...catalog, xmlns: "urn:spectaris" },
      catalog,
      ["the catalog format uses no XML namespace; remove xmlns"],
    ],
    [
      "an unknown attribute",
      "Article",
      { articleNumber: "A1", customerGroup: "0", colour: "red" },
      { articleNumber: "A1", customerGroup: "0" },
      ["<Article> has no attribute colour"],
    ],
    ["an attribute on an element that takes none", "Name", { lang: "de" }, {}, ["<Name> has no attribute lang"]],
    [
      "a missing required attribute",
      "Article",
      { articleNumber: "A1", whiteLabel: "true" },
      { articleNumber: "A1", whiteLabel: "true" },
      ["<Article> needs the attribute customerGroup"],
    ],
    [
      "every required attribute missing, in the format's order",
      "Catalog",
      {},
      {},
      [
        "<Catalog> needs the attribute supplierID",
        "<Catalog> needs the attribute catalogID",
        "<Catalog> needs the attribute resourceKey",
        "<Catalog> needs the attribute name",
        "<Catalog> needs the attribute language",
        "<Catalog> needs the attribute format",
        "<Catalog> needs the attribute formatVersion",
      ],
    ],
    [
      "an unknown and a missing attribute",
      "Revision",
      { validFrom: "2026-01-01" },
      {},
      ["<Revision> has no attribute validFrom", "<Revision> needs the attribute validStartDate"],
    ],
  ])("%s on <%s>", (_, element, given, attributes, problems) => {
    const read = readAttributes(element, given);
    expect({ attributes: read.attributes, problems: read.problems.map(englishProblemText) }).toEqual({
      attributes,
      problems,
    });
  });
});
