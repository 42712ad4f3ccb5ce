/**
 * What identifies a sub-catalog's bytes: a released revision never changes, so the document is decided by the
 * revision, the header, the customer groups and names that apply to its reader, whether prices show, and the version
 * of the rules that turn articles into XML. The strong entity tag is a hash of those; the plain body's length, once
 * known, is remembered per tag in this process (a range request needs it before the first byte).
 */
import { createHash } from "node:crypto";
import { processCache } from "@/lib/cache/process-cache";

/** Raise the version (and the date) whenever a change to the code changes the XML written for the same data. */
export const ARTICLE_RULES = { version: 1, changedAt: new Date("2026-11-25T00:00:00Z") };

export interface SubCatalogContent {
  revisionId: string;
  header: string;
  groups: number[] | "all";
  withPrices: boolean;
  names: Map<string, string>;
}

export function subCatalogTag(content: SubCatalogContent): string {
  const names = [...content.names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const identity = [
    ARTICLE_RULES.version,
    content.revisionId,
    content.header,
    content.groups,
    content.withPrices,
    names,
  ];
  return createHash("sha256").update(JSON.stringify(identity)).digest("base64url").slice(0, 27);
}

const MAX_REMEMBERED_LENGTHS = 10_000;
const lengths = processCache("subCatalogLengths", () => new Map<string, number>());

export const rememberedLength = (tag: string): number | undefined => lengths.get(tag);

export function rememberLength(tag: string, length: number): void {
  if (lengths.size >= MAX_REMEMBERED_LENGTHS && !lengths.has(tag)) lengths.delete(lengths.keys().next().value!);
  lengths.set(tag, length);
}
