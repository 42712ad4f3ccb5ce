/**
 * The rules of the master catalog format (docs/catalog-format.md, docs/catalog.xsd) as tables the streaming reader
 * (catalog-file.ts) applies: which element may contain which children, how often and in which order; which
 * attributes each element takes; the XSD's simple types, each a function that returns the value or throws
 * ValueError with the reason; and how an article's child elements become its fields.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import {
  englishProblemText,
  type CatalogProblem,
  type CatalogProblemKey,
} from "@/lib/catalog/publishing/catalog-problems";
import type { ImportedArticle } from "@/lib/store/models/catalog";

export interface CatalogFileError {
  line: number;
  /** The problem in English (the CLI, logs) */
  message: string;
  problem: CatalogProblem;
}

export const ARTICLE_BATCH_SIZE = 1000;
/** Errors reported per file; a file with more is broken throughout and more lines would not help. */
export const MAX_REPORTED_ERRORS = 20;
export const MAX_TEXT_LENGTH = 10_000;
const MAX_LIST_LENGTH = 1000;

// --- structure: which children, how often, in which order ------------------------------------------------------

type Occurrence = [name: string, min: number, max: number];
export const DOCUMENT = "#document";
/** Stands in for the name of an element that is not allowed where it is. */
export const UNEXPECTED = "#unexpected";
const MANY = Number.POSITIVE_INFINITY;

export const CONTENT: Record<string, Occurrence[]> = {
  [DOCUMENT]: [["Catalog", 1, 1]],
  Catalog: [
    ["Revision", 1, 1],
    ["ValidCountries", 1, 1],
    ["ProductGroups", 1, 1],
    ["Articles", 1, 1],
  ],
  Revision: [],
  ValidCountries: [["ValidCountry", 1, MAX_LIST_LENGTH]],
  ProductGroups: [["ProductGroup", 0, MAX_LIST_LENGTH]],
  Articles: [["Article", 1, MANY]],
  Article: [
    ["Name", 1, 1],
    ["PurchasePrice", 1, 1],
    ["RetailPrice", 0, 1],
    ["StartDate", 0, 1],
    ["EndDate", 0, 1],
  ],
};
export const TEXT_ONLY = new Set([
  "ValidCountry",
  "ProductGroup",
  "Name",
  "PurchasePrice",
  "RetailPrice",
  "StartDate",
  "EndDate",
]);
const ATTRIBUTES: Record<string, { required: string[]; optional: string[] }> = {
  Catalog: {
    required: ["supplierID", "catalogID", "resourceKey", "name", "language", "format", "formatVersion"],
    optional: [],
  },
  Revision: { required: ["validStartDate"], optional: ["comment", "validEndDate"] },
  Article: { required: ["articleNumber", "customerGroup"], optional: ["whiteLabel"] },
};

/** What is wrong with a child that has no place in its parent: what the parent expects instead, if anything. */
export function misplaced(parent: string, child: string): CatalogProblem {
  const allowed = (CONTENT[parent] ?? []).map(([name]) => `<${name}>`).join(", ");
  if (parent === DOCUMENT) return { key: "notExpectedInDocument", values: { child, allowed } };
  if (allowed) return { key: "notExpected", values: { child, parent, allowed } };
  return { key: "noChildren", values: { parent, child } };
}

// --- values: the XSD's simple types ---------------------------------------------------------------------------

/** A value the format does not allow; its message is the problem in English. */
export class ValueError extends OptiGateError<"invalid_value"> {
  readonly code = "invalid_value";
  readonly problem: CatalogProblem;
  constructor(key: CatalogProblemKey, values: Record<string, string | number> = {}) {
    super(englishProblemText({ key, values }));
    this.problem = { key, values };
  }
}

/** XSD whitespace collapsing, which applies to every type below except the revision comment. */
const collapse = (value: string) => value.replace(/[\t\n\r ]+/g, " ").trim();

function matching(pattern: RegExp, problem: CatalogProblemKey) {
  return (raw: string) => {
    const value = collapse(raw);
    if (!pattern.test(value)) throw new ValueError(problem, { value });
    return value;
  };
}

export const code = matching(/^[A-Za-z0-9_.-]{1,64}$/, "notCode");
export const country = matching(/^[A-Z]{2}$/, "notCountry");
export const language = matching(/^[a-z]{2}$/, "notLanguage");
export const formatVersion = matching(/^[0-9A-Za-z.]{1,16}$/, "notFormatVersion");
export const format = matching(/^SPECTARIS$/, "notFormat");

export function text(maxLength: number) {
  return (raw: string) => {
    const value = collapse(raw);
    if (value.length === 0) throw new ValueError("empty");
    if (value.length > maxLength) throw new ValueError("tooLong", { max: maxLength });
    return value;
  };
}

export function comment(raw: string): string {
  if (raw.length > 500) throw new ValueError("tooLong", { max: 500 });
  return raw;
}

export function date(raw: string): Date {
  const value = collapse(raw);
  const parsed = new Date(`${value}T00:00:00Z`);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
    Number.isNaN(parsed.getTime()) ||
    parsed.toISOString().slice(0, 10) !== value
  ) {
    throw new ValueError("notDate", { value });
  }
  return parsed;
}

function cents(raw: string): number {
  const value = collapse(raw);
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) throw new ValueError("notAmount", { value });
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export function customerGroup(raw: string): number {
  const value = collapse(raw);
  if (!/^\d{1,6}$/.test(value)) throw new ValueError("notCustomerGroup", { value });
  return Number(value);
}

export function flag(raw: string): boolean {
  const value = collapse(raw);
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new ValueError("notFlag", { value });
}

// --- applying them ---------------------------------------------------------------------------------------------

export interface Frame {
  name: string;
  line: number;
  /** Position in CONTENT[name] and how often the element there has occurred. */
  position: number;
  occurred: number;
  text: string;
}

export interface ArticleDraft {
  line: number;
  /** null once something about the article was wrong (and reported) */
  attributes: { articleNumber: string; customerGroup: number; whiteLabel: boolean } | null;
  values: Partial<
    Pick<ImportedArticle, "genericName" | "purchasePriceCents" | "retailPriceCents" | "startDate" | "endDate">
  >;
}

/** How each child of an Article becomes a field of the imported article. */
export const ARTICLE_VALUES: Record<string, (draft: ArticleDraft, raw: string) => void> = {
  Name: (draft, raw) => (draft.values.genericName = text(200)(raw)),
  PurchasePrice: (draft, raw) => (draft.values.purchasePriceCents = cents(raw)),
  RetailPrice: (draft, raw) => (draft.values.retailPriceCents = cents(raw)),
  StartDate: (draft, raw) => (draft.values.startDate = date(raw)),
  EndDate: (draft, raw) => (draft.values.endDate = date(raw)),
};

/** An element's attributes by the format's table, and what is wrong with them (unknown, missing, a namespace). */
export function readAttributes(
  element: string,
  given: Record<string, string>,
): { attributes: Record<string, string>; problems: CatalogProblem[] } {
  const rules = ATTRIBUTES[element] ?? { required: [], optional: [] };
  const attributes: Record<string, string> = {};
  const problems: CatalogProblem[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (name === "xmlns" && value !== "") problems.push({ key: "namespace" });
    else if (name === "xmlns" || name.startsWith("xmlns:") || name.startsWith("xsi:")) continue;
    else if (!rules.required.includes(name) && !rules.optional.includes(name))
      problems.push({ key: "unknownAttribute", values: { element, attribute: name } });
    else attributes[name] = value;
  }
  for (const name of rules.required)
    if (!(name in attributes)) problems.push({ key: "missingAttribute", values: { element, attribute: name } });
  return { attributes, problems };
}
