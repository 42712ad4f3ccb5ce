/** Writing XML as string chunks: escaped text and attributes, elements that are omitted when their value is absent. */

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
  );
}

export type Attributes = Record<string, string | number | null | undefined>;

function attributeText(attributes: Attributes): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join("");
}

export function openTag(name: string, attributes: Attributes = {}): string {
  return `<${name}${attributeText(attributes)}>`;
}

export function emptyElement(name: string, attributes: Attributes = {}): string {
  return `<${name}${attributeText(attributes)}/>`;
}

/** `<name>text</name>`, or nothing when the value is absent. */
export function textElement(name: string, value: string | number | null | undefined): string {
  return value === null || value === undefined ? "" : `<${name}>${escapeXml(String(value))}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

/** ISO 8601 without time zone (the catalog services' RevisionDateTime), in UTC. */
export const isoWithoutZone = (date: Date) => date.toISOString().slice(0, 19);

/** DD.MM.YYYY (the catalog services' ValidStartDate and ValidEndDate), in UTC. */
export const germanDate = (date: Date) =>
  `${String(date.getUTCDate()).padStart(2, "0")}.${String(date.getUTCMonth() + 1).padStart(2, "0")}.${date.getUTCFullYear()}`;
