/**
 * What identifies a sub-catalog's bytes: a released revision never changes, so the document is decided by the
 * revision, the header, the customer groups and names that apply to its reader, whether prices show, and the version
 * of the rules that turn articles into XML. The strong entity tag is a hash of those; the plain body's length and
 * where its pages start, once known, are remembered per tag in this process (a range request needs the length before
 * the first byte, and starts generating at the page its range starts in).
 */
import { createHash } from "node:crypto";
import { processCache } from "@/lib/observability/process-cache";
import type { ArticlePosition } from "@/lib/store/catalog-article-store";

/** Raise the version (and the date) whenever a change to the code changes the XML written for the same data. */
export const ARTICLE_RULES = { version: 1, changedAt: new Date("2026-11-25T00:00:00Z") };

export interface SubCatalogContent {
  revisionId: string;
  header: string;
  /** the customer groups read; "all" for the supplier's own view */
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

/** Where a page of articles starts in the plain document, and the article before it (the page's keyset start). */
export interface PageStart {
  offset: number;
  after?: ArticlePosition;
}

/** A document's length and where each page starts: a range request generates from the page its range starts in. */
export interface DocumentLayout {
  length: number;
  pages: PageStart[];
}

/** About 100 page starts per 200,000 articles: a thousand documents take a few MB. */
const MAX_REMEMBERED_LAYOUTS = 1_000;
const layouts = processCache("subCatalogLayouts", () => new Map<string, DocumentLayout>());

export const rememberedLayout = (tag: string): DocumentLayout | undefined => layouts.get(tag);

export function rememberLayout(tag: string, layout: DocumentLayout): void {
  if (layouts.size >= MAX_REMEMBERED_LAYOUTS && !layouts.has(tag)) layouts.delete(layouts.keys().next().value!);
  layouts.set(tag, layout);
}
