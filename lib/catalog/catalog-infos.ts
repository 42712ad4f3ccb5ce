/**
 * GET /getCatalogInfos.ashx: the catalog list document (root CatalogInfos, Company elements with CatalogInfo and,
 * with the webServices flag, WebServices), made from the published catalogs (lib/catalog/published-catalogs.ts).
 * With a ticket only the catalogs the user's company has an active registration and a subscription for are listed,
 * with ClientID and SubscriptionStatus. validCountry keeps catalogs valid in that country; productGroups
 * (`;`-separated) keeps catalogs that contain every given group. Anonymous documents are built once per change of the
 * published list.
 */
import { MAX_CACHED_CATALOG_QUERIES } from "@/lib/config/policy";
import type { DataAccess } from "@/lib/service-context";
import { createHash } from "node:crypto";
import { processCache } from "@/lib/observability/process-cache";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import {
  matchesFilter,
  publishedCatalogs,
  type CatalogFilter,
  type PublishedCatalog,
  type PublishedCatalogList,
} from "@/lib/catalog/published-catalogs";
import { userOfTicket } from "@/lib/catalog/tickets";
import { emptyElement, germanDate, isoWithoutZone, openTag, textElement, XML_DECLARATION } from "@/lib/catalog/xml";
import type { Stores } from "@/lib/store/stores";
import { customerLinksOf, type CustomerLink } from "@/lib/catalog/registrations/customer-links";

export interface CatalogInfosQuery extends CatalogFilter {
  ticket?: string;
  webServices: boolean;
}

export function parseCatalogInfosQuery(url: URL): CatalogInfosQuery {
  const params = url.searchParams;
  for (const name of ["ticket", "validCountry", "productGroups"]) {
    if (params.getAll(name).length > 1)
      throw new CatalogServiceError(400, `The parameter ${name} must not be repeated.`);
  }
  const validCountry = params.get("validCountry") ?? undefined;
  if (validCountry !== undefined && !/^[A-Za-z]{2}$/.test(validCountry))
    throw new CatalogServiceError(400, "validCountry must be a two-letter ISO country code, such as DE.");
  return {
    ticket: params.get("ticket") || undefined,
    validCountry: validCountry?.toUpperCase(),
    productGroups: (params.get("productGroups") ?? "")
      .split(";")
      .map((group) => group.trim())
      .filter(Boolean),
    webServices: params.has("webServices"),
  };
}

/** One catalog's CatalogInfo element; ClientID and SubscriptionStatus with the user's customer link. */
function catalogInfoXml(catalog: PublishedCatalog, link: CustomerLink | undefined): string {
  const revision = catalog.latest;
  return [
    "<CatalogInfo>",
    textElement("CatalogName", catalog.name),
    textElement("CatalogID", catalog.catalogId),
    textElement("ResourceKey", catalog.resourceKey),
    textElement("RevisionNumber", revision.number),
    textElement("RevisionComment", revision.comment),
    textElement("RevisionDateTime", isoWithoutZone(revision.publishedAt)),
    textElement("CatalogLanguage", catalog.language),
    textElement("CatalogFormat", catalog.format),
    textElement("CatalogFormatVersion", catalog.formatVersion),
    "<ValidCountries>",
    ...catalog.validCountries.map((country) => textElement("ValidCountry", country)),
    "</ValidCountries>",
    textElement("ValidStartDate", germanDate(revision.validFrom)),
    textElement("ValidEndDate", revision.validUntil ? germanDate(revision.validUntil) : null),
    textElement("ClientID", link?.clientId),
    textElement("SubscriptionStatus", link?.subscriptions.get(catalog.key)),
    "<ProductGroups>",
    ...catalog.productGroups.map((group) => textElement("ProductGroup", group)),
    "</ProductGroups>",
    "</CatalogInfo>",
  ].join("");
}

/** The document for these catalogs (in the published order, so one supplier's catalogs are together). */
function catalogInfosXml(
  catalogs: PublishedCatalog[],
  links: Map<string, CustomerLink> | undefined,
  withWebServices: boolean,
): string {
  const parts = [XML_DECLARATION, "<CatalogInfos>"];
  for (let index = 0; index < catalogs.length;) {
    const supplier = catalogs[index].supplier;
    const link = links?.get(supplier.companyId);
    parts.push(
      openTag("Company", {
        companyID: supplier.companyId,
        supplierID: supplier.supplierId,
        name1: supplier.name1,
        name2: supplier.name2,
        clientID: link?.clientId,
        portalUrl: supplier.portalUrl,
      }),
    );
    for (; index < catalogs.length && catalogs[index].supplier === supplier; index++)
      parts.push(catalogInfoXml(catalogs[index], link));
    if (withWebServices) {
      parts.push(
        "<WebServices>",
        ...supplier.webServices.map((s) =>
          emptyElement("WebService", {
            webServiceType: s.type,
            webServiceName: s.name,
            webServiceURL: s.url,
            webServicePriority: s.priority,
          }),
        ),
        "</WebServices>",
      );
    }
    parts.push("</Company>");
  }
  parts.push("</CatalogInfos>\n");
  return parts.join("");
}

export interface CatalogInfosDocument {
  /** the XML; a cached (anonymous) list keeps it encoded, so that each answer writes the same bytes */
  body: string | Buffer;
  /** the strong entity tag's opaque part: a hash of the body */
  tag: string;
  /** anonymous lists only (a customer's list also changes with its registrations, which leave no date behind) */
  lastModified?: Date;
}

const tagOf = (body: string) => createHash("sha256").update(body).digest("base64url").slice(0, 27);

const anonymousDocuments = processCache(
  "anonymousCatalogInfos",
  () => new WeakMap<Stores, { version: number; byQuery: Map<string, CatalogInfosDocument> }>(),
);

function anonymousDocument(stores: Stores, list: PublishedCatalogList, query: CatalogInfosQuery): CatalogInfosDocument {
  let cache = anonymousDocuments.get(stores);
  if (cache?.version !== list.version)
    anonymousDocuments.set(stores, (cache = { version: list.version, byQuery: new Map() }));
  const key = JSON.stringify([query.validCountry, query.productGroups, query.webServices]);
  let document = cache.byQuery.get(key);
  if (!document) {
    const body = catalogInfosXml(
      list.catalogs.filter((catalog) => matchesFilter(catalog, query)),
      undefined,
      query.webServices,
    );
    document = { body: Buffer.from(body), tag: tagOf(body), lastModified: list.builtAt };
    if (cache.byQuery.size >= MAX_CACHED_CATALOG_QUERIES) cache.byQuery.delete(cache.byQuery.keys().next().value!);
    cache.byQuery.set(key, document);
  }
  return document;
}

/** The catalog list: all published catalogs, or with a ticket those the user's company is subscribed to. */
export async function catalogInfosDocument(
  { stores }: DataAccess,
  query: CatalogInfosQuery,
): Promise<CatalogInfosDocument> {
  const user = query.ticket ? await userOfTicket(stores.tickets, query.ticket) : undefined;
  const list = await publishedCatalogs(stores);
  if (!user) return anonymousDocument(stores, list, query);
  const links = await customerLinksOf(stores, user.companyId);
  const subscribed = list.catalogs.filter(
    (catalog) => links.get(catalog.supplier.companyId)?.subscriptions.has(catalog.key) && matchesFilter(catalog, query),
  );
  const body = catalogInfosXml(subscribed, links, query.webServices);
  return { body, tag: tagOf(body) };
}
