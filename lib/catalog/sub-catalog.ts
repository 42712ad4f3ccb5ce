/**
 * One supplier's catalog revision, personalized for its reader (docs/subcatalog-format.md): the rules of
 * GET /getSubCatalog.ashx and of the platform API's article pages. Without a ticket (or a company): German catalogs
 * (catalog.xml) only, customer group 0, purchase prices 0. With one: group 0 and the customer's groups of the
 * company's active registration (narrowed by clientGroupID), white-label articles under the customer's names. Any
 * revision may be asked for; it must be released, except for the supplier's own users, who read every customer
 * group of any complete revision. The articles are streamed a page at a time, so memory stays flat.
 */
import { metrics } from "@/lib/observability/metrics";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { userOfTicket } from "@/lib/catalog/tickets";
import type { TicketStore } from "@/lib/store/ticket-store";
import { isoWithoutZone, openTag, textElement, XML_DECLARATION } from "@/lib/catalog/xml";
import type { Stores } from "@/lib/store/stores";
import { customerLinkAt } from "@/lib/catalog/registrations/customer-links";
import { ARTICLE_PAGE_SIZE, type ArticlePosition, type ArticleRow } from "@/lib/store/catalog-article-store";
import {
  ARTICLE_RULES,
  rememberLayout,
  subCatalogTag,
  type PageStart,
  type SubCatalogContent,
} from "@/lib/catalog/sub-catalog-identity";
import { lookUpCatalogRevision, type RevisionSelection } from "@/lib/catalog/catalog-revision-lookup";

const GERMAN_CATALOG_ID = "catalog.xml";

export interface SubCatalogQuery extends RevisionSelection {
  ticket?: string;
  clientGroupId?: number;
}

/** The content that decides the document (its groups: "all" for the supplier's own view), dated and tagged. */
export interface PreparedSubCatalog extends SubCatalogContent {
  /**
   * Not before anything the reader sees last changed: the revision's release, the customer's registration, the
   * article rules, a supplier or catalog change (lib/catalog/catalog-revision-lookup.ts).
   */
  changedAt: Date;
  /** the strong entity tag's opaque part (lib/catalog/sub-catalog-identity.ts) */
  tag: string;
  /** whose catalog it is, for the count of its downloads */
  supplierCompanyId: string;
}

function required(params: URLSearchParams, name: string): string {
  if (params.getAll(name).length > 1) throw new CatalogServiceError(400, `The parameter ${name} must not be repeated.`);
  const value = params.get(name)?.trim();
  if (!value) throw new CatalogServiceError(400, `The parameter ${name} is missing.`);
  return value;
}

function wholeNumber(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value))
    throw new CatalogServiceError(400, `The parameter ${name} must be a whole number (got "${value}").`);
  return Number(value);
}

export function parseSubCatalogQuery(url: URL): SubCatalogQuery {
  const params = url.searchParams;
  const group = params.get("clientGroupID")?.trim();
  return {
    ticket: params.get("ticket")?.trim() || undefined,
    supplierCompanyId: required(params, "companyID"),
    catalogKey: required(params, "catalogResourceKey"),
    revision: wholeNumber("revision", required(params, "revision")),
    clientGroupId: group ? wholeNumber("clientGroupID", group) : undefined,
  };
}

/**
 * Who reads: anyone (no ticket, no company), or a company's user or client. The supplier's own users see every group
 * of any complete revision with prices; an optician's company needs an active registration at the supplier.
 */
export type CatalogReader = { kind: "public" } | { kind: "company"; companyId: string };

/** The reader of a getSubCatalog request: the ticket's user's company, or anyone. */
export async function readerOfTicket(tickets: TicketStore, ticket: string | undefined): Promise<CatalogReader> {
  return ticket ? { kind: "company", companyId: (await userOfTicket(tickets, ticket)).companyId } : { kind: "public" };
}

/** Checks everything before the first byte is sent; throws CatalogServiceError with the status. */
export async function prepareSubCatalog(
  stores: Stores,
  selection: RevisionSelection,
  reader: CatalogReader,
  clientGroupId?: number,
): Promise<PreparedSubCatalog> {
  const { supplier, catalog, revision, listSeenSince } = await lookUpCatalogRevision(stores, selection);
  // A deactivated supplier publishes nothing.
  if (!supplier || supplier.kind !== "supplier" || !supplier.active)
    throw new CatalogServiceError(404, `There is no supplier with companyID "${selection.supplierCompanyId}".`);
  if (!catalog) throw new CatalogServiceError(404, `The supplier has no catalog "${selection.catalogKey}".`);
  const ownSupplier = reader.kind === "company" && reader.companyId === supplier.id;
  let groups: number[] | "all" = [0];
  let clientId: string | undefined;
  let names = new Map<string, string>();
  let linkChangedAt = new Date(0);
  if (reader.kind === "company" && !ownSupplier) {
    const link = await customerLinkAt(stores, reader.companyId, supplier.id);
    if (!link)
      throw new CatalogServiceError(401, "Your company has no active registration as a customer of this supplier.");
    const chosen =
      clientGroupId === undefined ? link.customerGroups : link.customerGroups.filter((g) => g === clientGroupId);
    groups = [...new Set([0, ...chosen])];
    clientId = link.clientId;
    names = link.whiteLabelNames;
    linkChangedAt = link.changedAt;
  } else if (reader.kind === "public" && catalog.catalogId !== GERMAN_CATALOG_ID) {
    throw new CatalogServiceError(
      403,
      "A ticket is required to download this catalog; without one only German catalogs (catalog.xml) are available.",
    );
  }

  if (!revision || !revision.complete)
    throw new CatalogServiceError(404, `The catalog has no revision ${selection.revision}.`);
  if (!revision.released && !ownSupplier)
    throw new CatalogServiceError(403, `Revision ${selection.revision} of this catalog is not released.`);
  // Every group of the revision: read with the articles, so that a revalidation reads none.
  if (ownSupplier) groups = "all";

  const header = `${XML_DECLARATION}${openTag("SubCatalog", {
    companyID: supplier.id,
    supplierID: supplier.supplierId ?? "",
    catalogID: catalog.catalogId,
    resourceKey: catalog.resourceKey,
    revision: revision.number,
    revisionDateTime: isoWithoutZone(revision.publishedAt),
    language: catalog.language,
    currency: "EUR",
    clientID: clientId,
  })}\n`;
  const content = { header, revisionId: revision.id, groups, withPrices: reader.kind === "company", names };
  const changedAt = Math.max(
    ...[revision.publishedAt, linkChangedAt, ARTICLE_RULES.changedAt, listSeenSince].map((date) => date.getTime()),
  );
  return { ...content, changedAt: new Date(changedAt), tag: subCatalogTag(content), supplierCompanyId: supplier.id };
}

/** An article as its reader sees it: the customer's name of a white-label article, purchase prices only with a ticket. */
export interface ArticleView {
  articleNumber: string;
  customerGroup: number;
  whiteLabel: boolean;
  name: string;
  /** in cents; 0 for readers without a ticket or company */
  purchasePriceCents: number;
  retailPriceCents: number | null;
  /** YYYY-MM-DD */
  startDate: string | null;
  endDate: string | null;
}

export function articleView(article: ArticleRow, prepared: PreparedSubCatalog): ArticleView {
  const whiteLabel = Boolean(article.whiteLabel);
  return {
    articleNumber: article.articleNumber,
    customerGroup: article.customerGroup,
    whiteLabel,
    name: (whiteLabel && prepared.names.get(article.articleNumber)) || article.genericName,
    purchasePriceCents: prepared.withPrices ? (article.purchasePriceCents ?? 0) : 0,
    retailPriceCents: article.retailPriceCents,
    startDate: article.startDate,
    endDate: article.endDate,
  };
}

const amount = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

/** YYYY-MM-DD as DD.MM.YYYY. */
const germanDay = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

/** One Article element (exported for the benchmark's baseline, which writes the same XML without the service). */
export function articleXml(article: ArticleRow, prepared: PreparedSubCatalog): string {
  const view = articleView(article, prepared);
  return [
    openTag("Article", {
      articleNumber: view.articleNumber,
      customerGroup: view.customerGroup,
      whiteLabel: String(view.whiteLabel),
    }),
    textElement("Name", view.name),
    textElement("PurchasePrice", amount(view.purchasePriceCents)),
    textElement("RetailPrice", amount(view.retailPriceCents)),
    textElement("StartDate", view.startDate && germanDay(view.startDate)),
    textElement("EndDate", view.endDate && germanDay(view.endDate)),
    "</Article>\n",
  ].join("");
}

/**
 * The document as a stream: header, then the articles a page at a time, then the end tag. The next page is asked for
 * before the current one is formatted, so that PostgreSQL reads while this process writes. From a page start (of the
 * remembered layout) the stream begins with that page; from the beginning it remembers the layout when complete.
 */
export function subCatalogStream(
  stores: Stores,
  prepared: PreparedSubCatalog,
  from?: PageStart,
): ReadableStream<Uint8Array> {
  let next: Promise<ArticleRow[]> | undefined;
  let written = from?.offset ?? 0;
  let after = from?.after;
  const pages: PageStart[] = [];
  let cancelled = false;
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    // Buffer.from encodes UTF-8 at about three times TextEncoder's rate on Node 24.
    const bytes = Buffer.from(text);
    written += bytes.byteLength;
    metrics.catalogBytes.inc(bytes.byteLength);
    controller.enqueue(bytes);
  };
  const read = (position?: ArticlePosition) => {
    const page = stores.catalogs.readArticlePage(prepared, position);
    page.catch(() => {}); // a caller who went away leaves a prefetched page unread; its failure is nobody's to handle
    return page;
  };
  return new ReadableStream({
    start(controller) {
      // The header goes out before the first read (with the default high-water mark, pull waits until it is taken).
      if (!from) send(controller, prepared.header);
    },
    async pull(controller) {
      const page = await (next ?? read(after));
      const complete = page.length === ARTICLE_PAGE_SIZE;
      pages.push({ offset: written, after });
      after = page[page.length - 1];
      if (complete && !cancelled) next = read(after);
      const text = page.map((article) => articleXml(article, prepared)).join("");
      send(controller, complete ? text : `${text}</SubCatalog>\n`);
      if (complete) return;
      controller.close();
      if (!from) rememberLayout(prepared.tag, { length: written, pages });
    },
    cancel() {
      // The reader went away: no page is asked for after this one.
      cancelled = true;
    },
  });
}
