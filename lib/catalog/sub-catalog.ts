/**
 * GET /getSubCatalog.ashx: one supplier's catalog revision, personalized for the caller (docs/subcatalog-format.md).
 * Without a ticket: German catalogs (catalog.xml) only, customer group 0, purchase prices 0. With a ticket: group 0
 * and the customer's groups (narrowed by clientGroupID), white-label articles under the customer's names. Any
 * revision may be asked for; it must be released. The articles are streamed in batches, so memory stays flat.
 */
import { CatalogServiceError } from "@/lib/catalog/catalog-response";
import { userOfTicket } from "@/lib/catalog/tickets";
import { germanDate, isoWithoutZone, openTag, textElement, XML_DECLARATION } from "@/lib/catalog/xml";
import type { Db } from "@/lib/db/prisma";

export const ARTICLE_BATCH_SIZE = 1000;
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

/** One Article element (exported for the benchmark's baseline, which writes the same XML without the service). */
export function articleXml(article: { articleNumber: string; genericName: string; customerGroup: number; purchasePriceCents: number | null; retailPriceCents: number | null; startDate: Date | null; endDate: Date | null; whiteLabel: boolean }, prepared: PreparedSubCatalog): string {
  const name = (article.whiteLabel && prepared.names.get(article.articleNumber)) || article.genericName;
  return [
    openTag("Article", { articleNumber: article.articleNumber, customerGroup: article.customerGroup, whiteLabel: String(article.whiteLabel) }),
    textElement("Name", name),
    textElement("PurchasePrice", prepared.withPrices ? (amount(article.purchasePriceCents) ?? "0.00") : "0.00"),
    textElement("RetailPrice", amount(article.retailPriceCents)),
    textElement("StartDate", article.startDate ? germanDate(article.startDate) : null),
    textElement("EndDate", article.endDate ? germanDate(article.endDate) : null),
    "</Article>\n",
  ].join("");
}

/** The next ARTICLE_BATCH_SIZE articles of the sub-catalog after `lastId`, in id order (keyset pagination). */
export function readArticleBatch(db: Db, prepared: PreparedSubCatalog, lastId: string | undefined) {
  return db.catalogArticle.findMany({
    where: { revisionId: prepared.revisionId, customerGroup: { in: prepared.groups }, ...(lastId ? { id: { gt: lastId } } : {}) },
    orderBy: { id: "asc" },
    take: ARTICLE_BATCH_SIZE,
  });
}

/** The document as a stream: header, then the articles read ARTICLE_BATCH_SIZE at a time by id, then the end tag. */
export function subCatalogStream(db: Db, prepared: PreparedSubCatalog): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId: string | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(prepared.header));
        return;
      }
      const batch = await readArticleBatch(db, prepared, lastId);
      if (batch.length > 0) {
        lastId = batch[batch.length - 1].id;
        controller.enqueue(encoder.encode(batch.map((article) => articleXml(article, prepared)).join("")));
      }
      if (batch.length < ARTICLE_BATCH_SIZE) {
        controller.enqueue(encoder.encode("</SubCatalog>\n"));
        controller.close();
      }
    },
  });
}
