/**
 * GET /getSubCatalog.ashx: one supplier's catalog revision, personalized for the caller (docs/subcatalog-format.md).
 * Without a ticket: German catalogs (catalog.xml) only, customer group 0, purchase prices 0. With a ticket: group 0
 * and the customer's groups (narrowed by clientGroupID), white-label articles under the customer's names. Any
 * revision may be asked for; it must be released. The articles are streamed a page at a time, so memory stays flat.
 */
import { CatalogServiceError } from "@/lib/catalog/catalog-response";
import { userOfTicket } from "@/lib/catalog/tickets";
import { isoWithoutZone, openTag, textElement, XML_DECLARATION } from "@/lib/catalog/xml";
import type { Db } from "@/lib/db/prisma";
import { ARTICLE_PAGE_SIZE, readArticlePage, type ArticlePosition, type ArticleRow } from "@/lib/catalog/article-pages";

const GERMAN_CATALOG_ID = "catalog.xml";

export interface SubCatalogQuery {
  ticket?: string;
  companyId: string;
  catalogKey: string;
  revision: number;
  clientGroupId?: number;
}

export interface PreparedSubCatalog {
  header: string;
  revisionId: string;
  groups: number[];
  withPrices: boolean;
  names: Map<string, string>;
}

function required(params: URLSearchParams, name: string): string {
  if (params.getAll(name).length > 1) throw new CatalogServiceError(400, `The parameter ${name} must not be repeated.`);
  const value = params.get(name)?.trim();
  if (!value) throw new CatalogServiceError(400, `The parameter ${name} is missing.`);
  return value;
}

function wholeNumber(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new CatalogServiceError(400, `The parameter ${name} must be a whole number (got "${value}").`);
  return Number(value);
}

export function parseSubCatalogQuery(url: URL): SubCatalogQuery {
  const params = url.searchParams;
  const group = params.get("clientGroupID")?.trim();
  return {
    ticket: params.get("ticket")?.trim() || undefined,
    companyId: required(params, "companyID"),
    catalogKey: required(params, "catalogResourceKey"),
    revision: wholeNumber("revision", required(params, "revision")),
    clientGroupId: group ? wholeNumber("clientGroupID", group) : undefined,
  };
}

/** Checks everything before the first byte is sent; throws CatalogServiceError or TicketError with the status. */
export async function prepareSubCatalog(db: Db, query: SubCatalogQuery): Promise<PreparedSubCatalog> {
  const supplier = await db.company.findUnique({ where: { id: query.companyId } });
  if (!supplier || supplier.kind !== "supplier") throw new CatalogServiceError(404, `There is no supplier with companyID "${query.companyId}".`);
  const catalog =
    (await db.catalog.findUnique({ where: { supplierCompanyId_resourceKey: { supplierCompanyId: supplier.id, resourceKey: query.catalogKey } } })) ??
    (await db.catalog.findUnique({ where: { supplierCompanyId_catalogId: { supplierCompanyId: supplier.id, catalogId: query.catalogKey } } }));
  if (!catalog) throw new CatalogServiceError(404, `The supplier has no catalog "${query.catalogKey}".`);

  let groups = [0];
  let clientId: string | undefined;
  let names = new Map<string, string>();
  if (query.ticket) {
    const user = await userOfTicket(db, query.ticket);
    const relationship = await db.customerRelationship.findUnique({
      where: { customerCompanyId_supplierCompanyId: { customerCompanyId: user.companyId, supplierCompanyId: supplier.id } },
      include: { whiteLabelNames: true },
    });
    if (!relationship) throw new CatalogServiceError(401, "Your company is not registered as a customer of this supplier.");
    if (!relationship.active) throw new CatalogServiceError(403, "Your customer account at this supplier is inactive.");
    const customerGroups = JSON.parse(relationship.customerGroups) as number[];
    const chosen = query.clientGroupId === undefined ? customerGroups : customerGroups.filter((g) => g === query.clientGroupId);
    groups = [...new Set([0, ...chosen])];
    clientId = relationship.clientId;
    names = new Map(relationship.whiteLabelNames.map((n) => [n.articleNumber, n.name]));
  } else if (catalog.catalogId !== GERMAN_CATALOG_ID) {
    throw new CatalogServiceError(403, "A ticket is required to download this catalog; without one only German catalogs (catalog.xml) are available.");
  }

  const revision = await db.catalogRevision.findUnique({ where: { catalogId_number: { catalogId: catalog.id, number: query.revision } } });
  if (!revision) throw new CatalogServiceError(404, `The catalog has no revision ${query.revision}.`);
  if (!revision.released) throw new CatalogServiceError(403, `Revision ${query.revision} of this catalog is not released.`);

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
  return { header, revisionId: revision.id, groups, withPrices: query.ticket !== undefined, names };
}

const amount = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

/** YYYY-MM-DD as DD.MM.YYYY. */
const germanDay = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

/** One Article element (exported for the benchmark's baseline, which writes the same XML without the service). */
export function articleXml(article: ArticleRow, prepared: PreparedSubCatalog): string {
  const whiteLabel = Boolean(article.whiteLabel);
  const name = (whiteLabel && prepared.names.get(article.articleNumber)) || article.genericName;
  return [
    openTag("Article", { articleNumber: article.articleNumber, customerGroup: article.customerGroup, whiteLabel: String(whiteLabel) }),
    textElement("Name", name),
    textElement("PurchasePrice", prepared.withPrices ? (amount(article.purchasePriceCents) ?? "0.00") : "0.00"),
    textElement("RetailPrice", amount(article.retailPriceCents)),
    textElement("StartDate", article.startDate && germanDay(article.startDate)),
    textElement("EndDate", article.endDate && germanDay(article.endDate)),
    "</Article>\n",
  ].join("");
}

/**
 * The document as a stream: header, then the articles a page at a time, then the end tag. The next page is asked for
 * before the current one is formatted, so that PostgreSQL reads while this process writes.
 */
export function subCatalogStream(db: Db, prepared: PreparedSubCatalog): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next: Promise<ArticleRow[]> | undefined;
  const read = (after?: ArticlePosition) => {
    const page = readArticlePage(db, prepared, after);
    page.catch(() => {}); // a caller who went away leaves a prefetched page unread; its failure is nobody's to handle
    return page;
  };
  return new ReadableStream({
    start(controller) {
      // The header goes out before the first read (with the default high-water mark, pull waits until it is taken).
      controller.enqueue(encoder.encode(prepared.header));
    },
    async pull(controller) {
      const page = await (next ?? read());
      const complete = page.length === ARTICLE_PAGE_SIZE;
      if (complete) next = read(page[page.length - 1]);
      const text = page.map((article) => articleXml(article, prepared)).join("");
      controller.enqueue(encoder.encode(complete ? text : `${text}</SubCatalog>\n`));
      if (!complete) controller.close();
    },
  });
}
