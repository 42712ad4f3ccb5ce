/**
 * The rules of the master catalog format (docs/catalog-format.md, docs/catalog.xsd) as tables the streaming reader
 * (catalog-file.ts) applies: which element may contain which children, how often and in which order; which
 * attributes each element takes; the XSD's simple types, each a function that returns the value or throws
 * ValueError with the reason; and how an article's child elements become its fields.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";

export interface CatalogDescription {
  name: string;
  language: string;
  format: string;
  formatVersion: string;
  validCountries: string[];
  productGroups: string[];
}

export interface CatalogHeader {
  supplierId: string;
  catalogId: string;
  resourceKey: string;
  description: CatalogDescription;
  comment: string;
  validFrom: Date;
  validUntil: Date | null;
  /** Line of the Catalog element, for errors about the catalog as a whole. */
  line: number;
}

export interface ImportedArticle {
  articleNumber: string;
  genericName: string;
  customerGroup: number;
  purchasePriceCents: number;
  retailPriceCents: number | null;
  startDate: Date | null;
  endDate: Date | null;
  whiteLabel: boolean;
}

export interface CatalogFileError {
  line: number;
  message: string;
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

// --- values: the XSD's simple types ---------------------------------------------------------------------------

export class ValueError extends OptiGateError<"invalid_value"> {
  readonly code = "invalid_value";
}

/** XSD whitespace collapsing, which applies to every type below except the revision comment. */
const collapse = (value: string) => value.replace(/[\t\n\r ]+/g, " ").trim();

function matching(pattern: RegExp, what: string) {
  return (raw: string) => {
    const value = collapse(raw);
    if (!pattern.test(value)) throw new ValueError(`"${value}" is not ${what}`);
    return value;
  };
}

export const code = matching(/^[A-Za-z0-9_.-]{1,64}$/, "a code of 1 to 64 letters, digits, '.', '_' or '-'");
export const country = matching(/^[A-Z]{2}$/, "a two-letter country code in capitals, such as DE");
export const language = matching(/^[a-z]{2}$/, "a two-letter language code in small letters, such as de");
export const formatVersion = matching(/^[0-9A-Za-z.]{1,16}$/, "a format version such as 2.1");
export const format = matching(/^SPECTARIS$/, "a supported format (SPECTARIS)");

export function text(maxLength: number) {
  return (raw: string) => {
    const value = collapse(raw);
    if (value.length === 0) throw new ValueError("must not be empty");
    if (value.length > maxLength) throw new ValueError(`is longer than ${maxLength} characters`);
    return value;
  };
}

export function comment(raw: string): string {
  if (raw.length > 500) throw new ValueError("is longer than 500 characters");
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
    throw new ValueError(`"${value}" is not a date in the form YYYY-MM-DD`);
  }
  return parsed;
}

function cents(raw: string): number {
  const value = collapse(raw);
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match)
    throw new ValueError(`"${value}" is not an amount such as 12.50 (at most 7 digits before and 2 after the point)`);
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export function customerGroup(raw: string): number {
  const value = collapse(raw);
  if (!/^\d{1,6}$/.test(value)) throw new ValueError(`"${value}" is not a customer group number (0 to 999999)`);
  return Number(value);
}

export function flag(raw: string): boolean {
  const value = collapse(raw);
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new ValueError(`"${value}" is not true or false`);
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
): { attributes: Record<string, string>; problems: string[] } {
  const rules = ATTRIBUTES[element] ?? { required: [], optional: [] };
  const attributes: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (name === "xmlns" && value !== "") problems.push("the catalog format uses no XML namespace; remove xmlns");
    else if (name === "xmlns" || name.startsWith("xmlns:") || name.startsWith("xsi:")) continue;
    else if (!rules.required.includes(name) && !rules.optional.includes(name))
      problems.push(`<${element}> has no attribute ${name}`);
    else attributes[name] = value;
  }
  for (const name of rules.required)
    if (!(name in attributes)) problems.push(`<${element}> needs the attribute ${name}`);
  return { attributes, problems };
}
