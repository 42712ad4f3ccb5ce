/** A catalog file's attributes as the values they stand for, and when a header or an article is complete. */
import { describe, expect, it } from "vitest";
import {
  articleAttributes,
  catalogAttributes,
  completedArticle,
  completedHeader,
  revisionAttributes,
  type CatalogDraft,
} from "@/lib/catalog/publishing/catalog-elements";
import { ValueError, type ArticleDraft } from "@/lib/catalog/publishing/catalog-format";
import { thrown } from "../../../helpers/thrown";

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const catalog = {
  supplierID: " S1 ",
  catalogID: "catalog.xml",
  resourceKey: "K-1",
  name: " Brillengläser \n 2026 ",
  language: "de",
  format: "SPECTARIS",
  formatVersion: "2.1",
};

describe("catalogAttributes", () => {
  it("reads the catalog's identity and description", () => {
    expect(catalogAttributes(catalog)).toEqual({
      supplierId: "S1",
      catalogId: "catalog.xml",
      resourceKey: "K-1",
      description: { name: "Brillengläser 2026", language: "de", format: "SPECTARIS", formatVersion: "2.1" },
    });
  });

  it.each([
    ["supplierID", "S 1", "\"S 1\" is not a code of 1 to 64 letters, digits, '.', '_' or '-'"],
    ["catalogID", "", "\"\" is not a code of 1 to 64 letters, digits, '.', '_' or '-'"],
    ["resourceKey", "k/1", "\"k/1\" is not a code of 1 to 64 letters, digits, '.', '_' or '-'"],
    ["name", " ", "must not be empty"],
    ["name", "n".repeat(201), "is longer than 200 characters"],
    ["language", "DE", '"DE" is not a two-letter language code in small letters, such as de'],
    ["format", "OTHER", '"OTHER" is not a supported format (SPECTARIS)'],
    ["formatVersion", "2,1", '"2,1" is not a format version such as 2.1'],
  ])("refuses %s=%j: %s", (name, value, message) => {
    expect(thrown(ValueError, () => catalogAttributes({ ...catalog, [name]: value })).message).toBe(message);
  });
});

describe("revisionAttributes", () => {
  it.each([
    [{ validStartDate: "2026-01-01" }, { comment: "", validFrom: day("2026-01-01"), validUntil: null }],
    [
      { validStartDate: "2026-01-01", validEndDate: "2026-12-31", comment: " spring " },
      { comment: " spring ", validFrom: day("2026-01-01"), validUntil: day("2026-12-31") },
    ],
    [
      { validStartDate: "2026-01-01", validEndDate: "2026-01-01" },
      { comment: "", validFrom: day("2026-01-01"), validUntil: day("2026-01-01") },
    ],
  ])("reads %j", (attributes, revision) => {
    expect(revisionAttributes(attributes)).toEqual(revision);
  });

  it.each([
    [
      "an end before the start",
      { validStartDate: "2026-01-02", validEndDate: "2026-01-01" },
      "validEndDate is before validStartDate",
    ],
    ["a bad start", { validStartDate: "2026-01-32" }, '"2026-01-32" is not a date in the form YYYY-MM-DD'],
    [
      "a bad end",
      { validStartDate: "2026-01-01", validEndDate: "never" },
      '"never" is not a date in the form YYYY-MM-DD',
    ],
    ["a long comment", { validStartDate: "2026-01-01", comment: "c".repeat(501) }, "is longer than 500 characters"],
  ])("refuses %s", (_, attributes, message) => {
    expect(thrown(ValueError, () => revisionAttributes(attributes)).message).toBe(message);
  });
});

describe("articleAttributes", () => {
  it.each([
    [
      { articleNumber: " A-1 ", customerGroup: "0" },
      { articleNumber: "A-1", customerGroup: 0, whiteLabel: false },
    ],
    [
      { articleNumber: "A 1", customerGroup: "12", whiteLabel: "1" },
      { articleNumber: "A 1", customerGroup: 12, whiteLabel: true },
    ],
    [
      { articleNumber: "a".repeat(64), customerGroup: "999999", whiteLabel: "false" },
      { articleNumber: "a".repeat(64), customerGroup: 999999, whiteLabel: false },
    ],
  ])("reads %j", (attributes, article) => {
    expect(articleAttributes(attributes)).toEqual(article);
  });

  it.each([
    ["an empty article number", { articleNumber: " ", customerGroup: "0" }, "must not be empty"],
    [
      "an article number of 65 characters",
      { articleNumber: "a".repeat(65), customerGroup: "0" },
      "is longer than 64 characters",
    ],
    [
      "a customer group that is no number",
      { articleNumber: "A1", customerGroup: "gold" },
      '"gold" is not a customer group number (0 to 999999)',
    ],
    [
      "a whiteLabel that is no flag",
      { articleNumber: "A1", customerGroup: "0", whiteLabel: "yes" },
      '"yes" is not true or false',
    ],
  ])("refuses %s", (_, attributes, message) => {
    expect(thrown(ValueError, () => articleAttributes(attributes)).message).toBe(message);
  });
});

describe("completedHeader", () => {
  const description = { name: "Lenses", language: "de", format: "SPECTARIS", formatVersion: "2.1" };
  const draft: CatalogDraft = {
    supplierId: "S1",
    catalogId: "catalog.xml",
    resourceKey: "K1",
    validFrom: day("2026-01-01"),
    line: 2,
    description,
  };
  const header = {
    supplierId: "S1",
    catalogId: "catalog.xml",
    resourceKey: "K1",
    comment: "",
    validFrom: day("2026-01-01"),
    validUntil: null,
    line: 2,
    description,
  };

  it.each<[string, CatalogDraft, unknown]>([
    ["identity and start date: no comment and no end", draft, header],
    [
      "with a comment and an end date",
      { ...draft, comment: "c", validUntil: day("2026-06-30") },
      { ...header, comment: "c", validUntil: day("2026-06-30") },
    ],
    ["on line 0", { ...draft, line: 0 }, { ...header, line: 0 }],
    ["without supplierId", { ...draft, supplierId: undefined }, undefined],
    ["without catalogId", { ...draft, catalogId: undefined }, undefined],
    ["without resourceKey", { ...draft, resourceKey: undefined }, undefined],
    ["without validFrom (no revision read yet)", { ...draft, validFrom: undefined }, undefined],
    ["without line", { ...draft, line: undefined }, undefined],
  ])("%s", (_, catalogDraft, expected) => {
    expect(completedHeader(catalogDraft)).toEqual(expected);
  });
});

describe("completedArticle", () => {
  const attributes = { articleNumber: "A1", customerGroup: 3, whiteLabel: true };
  const values = { genericName: "Lens", purchasePriceCents: 1250 };
  const article = {
    ...attributes,
    genericName: "Lens",
    purchasePriceCents: 1250,
    retailPriceCents: null,
    startDate: null,
    endDate: null,
  };
  const draft = (partial: Partial<ArticleDraft>): ArticleDraft => ({ line: 9, attributes, values, ...partial });

  it.each<[string, ArticleDraft, unknown]>([
    ["name and purchase price: the optional fields null", draft({}), article],
    [
      "every field",
      draft({
        values: { ...values, retailPriceCents: 1999, startDate: day("2026-01-01"), endDate: day("2026-12-31") },
      }),
      { ...article, retailPriceCents: 1999, startDate: day("2026-01-01"), endDate: day("2026-12-31") },
    ],
    [
      "a purchase price of 0",
      draft({ values: { ...values, purchasePriceCents: 0 } }),
      { ...article, purchasePriceCents: 0 },
    ],
    ["attributes that were wrong", draft({ attributes: null }), undefined],
    ["no name", draft({ values: { purchasePriceCents: 1250 } }), undefined],
    ["no purchase price", draft({ values: { genericName: "Lens" } }), undefined],
  ])("%s", (_, articleDraft, expected) => {
    expect(completedArticle(articleDraft)).toEqual(expected);
  });
});
