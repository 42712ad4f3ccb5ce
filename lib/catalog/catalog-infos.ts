/**
 * GET /getCatalogInfos.ashx: the catalog list document (root CatalogInfos, Company elements with CatalogInfo and,
 * with the webServices flag, WebServices). Each catalog is listed with its latest released revision. With a ticket
 * only the catalogs the user's company is registered for (subscribed to) are listed, with ClientID and
 * SubscriptionStatus. validCountry keeps catalogs valid in that country; productGroups (`;`-separated) keeps
 * catalogs that contain every given group.
 */
import { CatalogServiceError } from "@/lib/catalog/catalog-response";
import { userOfTicket } from "@/lib/catalog/tickets";
import { emptyElement, germanDate, isoWithoutZone, openTag, textElement, XML_DECLARATION } from "@/lib/catalog/xml";
import type { Db } from "@/lib/db/prisma";

export interface CatalogInfosQuery {
  ticket?: string;
  validCountry?: string;
  productGroups: string[];
  webServices: boolean;
}

export function parseCatalogInfosQuery(url: URL): CatalogInfosQuery {
  const params = url.searchParams;
  for (const name of ["ticket", "validCountry", "productGroups"]) {
    if (params.getAll(name).length > 1) throw new CatalogServiceError(400, `The parameter ${name} must not be repeated.`);
  }
  const validCountry = params.get("validCountry") ?? undefined;
  if (validCountry !== undefined && !/^[A-Za-z]{2}$/.test(validCountry)) throw new CatalogServiceError(400, "validCountry must be a two-letter ISO country code, such as DE.");
  return {
    ticket: params.get("ticket") || undefined,
    validCountry: validCountry?.toUpperCase(),
    productGroups: (params.get("productGroups") ?? "").split(";").map((group) => group.trim()).filter(Boolean),
    webServices: params.has("webServices"),
  };
}

interface Registration {
  clientId: string;
  statuses: Map<string, string>;
}

/** The user's registrations by supplier, for a ticket. */
async function registrationsOf(db: Db, ticket: string): Promise<Map<string, Registration>> {
  const user = await userOfTicket(db, ticket);
  const relationships = await db.customerRelationship.findMany({ where: { customerCompanyId: user.companyId }, include: { subscriptions: true } });
  return new Map(relationships.map((r) => [r.supplierCompanyId, { clientId: r.clientId, statuses: new Map(r.subscriptions.map((s) => [s.catalogId, s.status])) }]));
}

/** The items by key, keys in order of first appearance. */
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

export async function catalogInfosXml(db: Db, query: CatalogInfosQuery): Promise<string> {
  const registrations = query.ticket ? await registrationsOf(db, query.ticket) : undefined;
  const registered = registrations ? { in: [...registrations.values()].flatMap((r) => [...r.statuses.keys()]) } : undefined;
  const catalogs = await db.catalog.findMany({
    where: { id: registered },
    include: { supplier: true },
    orderBy: [{ supplierCompanyId: "asc" }, { catalogId: "asc" }],
  });
  // One query for every released revision, rather than one per catalog: the latest wins.
  const released = await db.catalogRevision.findMany({ where: { released: true, catalogId: registered }, omit: { id: true, catalogDescription: true } });
  const latest = new Map<string, (typeof released)[number]>();
  for (const revision of released) {
    if ((latest.get(revision.catalogId)?.number ?? -1) < revision.number) latest.set(revision.catalogId, revision);
  }
  const listed = catalogs.filter((catalog) => {
    const countries = JSON.parse(catalog.validCountries) as string[];
    const groups = JSON.parse(catalog.productGroups) as string[];
    return latest.has(catalog.id) && (!query.validCountry || countries.includes(query.validCountry)) && query.productGroups.every((group) => groups.includes(group));
  });
  const bySupplier = groupBy(listed, (catalog) => catalog.supplierCompanyId);
  const services = query.webServices
    ? groupBy(await db.supplierWebService.findMany({ where: { supplierCompanyId: { in: [...bySupplier.keys()] } }, orderBy: [{ priority: "asc" }, { type: "asc" }] }), (service) => service.supplierCompanyId)
    : undefined;

  const parts = [XML_DECLARATION, "<CatalogInfos>"];
  for (const [supplierId, ofSupplier] of bySupplier) {
    const company = ofSupplier[0].supplier;
    const registration = registrations?.get(supplierId);
    parts.push(openTag("Company", { companyID: company.id, supplierID: company.supplierId ?? "", name1: company.name1 ?? company.name, name2: company.name2 ?? "", clientID: registration?.clientId, portalUrl: company.portalUrl ?? "" }));
    for (const catalog of ofSupplier) {
      const revision = latest.get(catalog.id)!;
      parts.push(
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
        ...(JSON.parse(catalog.validCountries) as string[]).map((country) => textElement("ValidCountry", country)),
        "</ValidCountries>",
        textElement("ValidStartDate", germanDate(revision.validFrom)),
        textElement("ValidEndDate", revision.validUntil ? germanDate(revision.validUntil) : null),
        textElement("ClientID", registration?.clientId),
        textElement("SubscriptionStatus", registration?.statuses.get(catalog.id)),
        "<ProductGroups>",
        ...(JSON.parse(catalog.productGroups) as string[]).map((group) => textElement("ProductGroup", group)),
        "</ProductGroups>",
        "</CatalogInfo>",
      );
    }
    if (services) {
      parts.push("<WebServices>", ...(services.get(supplierId) ?? []).map((s) => emptyElement("WebService", { webServiceType: s.type, webServiceName: s.name, webServiceURL: s.url, webServicePriority: s.priority })), "</WebServices>");
    }
    parts.push("</Company>");
  }
  parts.push("</CatalogInfos>\n");
  return parts.join("");
}
