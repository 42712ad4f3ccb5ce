/**
 * GET /v2/catalogs, /v2/catalogs/{supplierId}/{catalogId} and its revisions' articles: the published catalogs as
 * JSON (the same list and filters as getCatalogInfos.ashx), and articles by the getSubCatalog rules as JSON pages or,
 * with Accept: application/xml, as the sub-catalog document, streamed.
 */
import { jsonResponse, jsonTextResponse, type ApiCall } from "@/lib/api/api-call";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { ApiProblem } from "@/lib/errors/api-problem";
import { queryParameters, wholeNumberParameter } from "@/lib/api/request-input";
import { subCatalogDownload } from "@/lib/catalog/sub-catalog-download";
import { createHash } from "node:crypto";
import {
  articlePage,
  catalogDetail,
  listCatalogs,
  prepareArticles,
  type ArticlePosition,
  type ArticleView,
  type CatalogListEntry,
  type CatalogPosition,
  type PublishedCatalog,
} from "@/lib/rights/catalog-reads";
import { downloadAnswer, type DownloadRefusal } from "@/lib/http/download-answer";
import { problemAnswer } from "@/lib/http/error-answers";

export const MAX_CATALOG_PAGE = 500;
export const MAX_ARTICLE_PAGE = 5000;
const MAX_TEXT_PARAMETER = 100;

const isText = (value: unknown): value is string => typeof value === "string" && value.length <= MAX_TEXT_PARAMETER;

function textParameter(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && (value.length === 0 || value.length > MAX_TEXT_PARAMETER))
    throw new ApiProblem("bad-request", `${name} must be 1 to ${MAX_TEXT_PARAMETER} characters.`);
  return value;
}

/** A catalog as the API shows it, without the caller's registration. */
function catalogFields(catalog: PublishedCatalog) {
  return {
    supplierId: catalog.supplier.supplierId,
    companyId: catalog.supplier.companyId,
    supplierName: catalog.supplier.name,
    catalogId: catalog.catalogId,
    resourceKey: catalog.resourceKey,
    name: catalog.name,
    language: catalog.language,
    validCountries: catalog.validCountries,
    productGroups: catalog.productGroups,
    latestRevision: { number: catalog.latest.number, releasedAt: catalog.latest.publishedAt.toISOString() },
  };
}

const registrationOf = ({ catalog, link }: CatalogListEntry) =>
  link ? { clientId: link.clientId, subscriptionStatus: link.subscriptions.get(catalog.key) ?? "Unsubscribed" } : null;

/**
 * The JSON of a published catalog's fields, made once per built list (its entries are replaced when it is rebuilt):
 * a list page then only writes each caller's registration.
 */
const fieldsJson = new WeakMap<PublishedCatalog, string>();
function catalogItemJson(entry: CatalogListEntry): string {
  let fields = fieldsJson.get(entry.catalog);
  if (fields === undefined)
    fieldsJson.set(entry.catalog, (fields = JSON.stringify(catalogFields(entry.catalog)).slice(0, -1)));
  return `${fields},"registration":${JSON.stringify(registrationOf(entry))}}`;
}

export async function listCatalogsRoute(call: ApiCall): Promise<Response> {
  const query = queryParameters(call.url, ["validCountry", "productGroup", "supplierId", "limit", "cursor"]);
  const validCountry = query.get("validCountry");
  if (validCountry !== undefined && !/^[A-Za-z]{2}$/.test(validCountry))
    throw new ApiProblem("bad-request", "validCountry must be a two-letter ISO country code, such as DE.");
  const productGroup = textParameter("productGroup", query.get("productGroup"));
  const filter = {
    validCountry: validCountry?.toUpperCase(),
    productGroups: productGroup ? [productGroup] : [],
    supplierId: textParameter("supplierId", query.get("supplierId")),
  };
  const limit = wholeNumberParameter("limit", query.get("limit"), { min: 1, max: MAX_CATALOG_PAGE, default: 100 })!;
  const list = `catalogs?${JSON.stringify(filter)}`;
  const cursor = query.get("cursor");
  let after: CatalogPosition | undefined;
  if (cursor !== undefined) {
    const position = decodeCursor(call.context.config.secretKey, list, cursor) as Partial<CatalogPosition> | null;
    if (!isText(position?.supplierId) || !isText(position?.catalogId))
      throw new ApiProblem("bad-request", "The cursor is not one this API handed out.");
    after = { supplierId: position.supplierId, catalogId: position.catalogId };
  }
  const { entries, more } = await listCatalogs(call.actor, filter, after, limit);
  const last = entries.at(-1)?.catalog;
  const next =
    more && last
      ? encodeCursor(call.context.config.secretKey, list, {
          supplierId: last.supplier.supplierId,
          catalogId: last.catalogId,
        })
      : null;
  return jsonTextResponse(`{"items":[${entries.map(catalogItemJson).join(",")}],"next":${JSON.stringify(next)}}`);
}

const positionOf = (call: ApiCall): CatalogPosition => ({
  supplierId: call.params.supplierId,
  catalogId: call.params.catalogId,
});

export async function catalogDetailRoute(call: ApiCall): Promise<Response> {
  queryParameters(call.url, []);
  const detail = await catalogDetail(call.actor, positionOf(call));
  return jsonResponse({
    ...catalogFields(detail.catalog),
    registration: registrationOf(detail),
    revisions: detail.revisions.map((revision) => ({
      number: revision.number,
      releasedAt: revision.releasedAt?.toISOString() ?? null,
      comment: revision.comment,
      released: revision.released,
    })),
  });
}

/** Does the Accept header rank XML above JSON (q-values; JSON when both or neither are named)? */
export function prefersXml(accept: string | null): boolean {
  let xml = 0;
  let json = 0;
  for (const range of (accept ?? "").split(",")) {
    const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    const qParameter = parameters.find((parameter) => parameter.startsWith("q="));
    const q = qParameter ? Number(qParameter.slice(2)) || 0 : 1;
    if (type === "application/xml" || type === "text/xml") xml = Math.max(xml, q);
    if (type === "application/json") json = Math.max(json, q);
  }
  return xml > json;
}

const amount = (cents: number | null) => (cents === null ? null : cents / 100);

const refuseDownload: DownloadRefusal = (status, message, headers) =>
  problemAnswer(new ApiProblem(status === 406 ? "not-acceptable" : "range-not-satisfiable", message, headers));

/** Article pages and documents are the caller's own: its browser or program may keep them, revalidating each use. */
const ARTICLE_CACHING = "private, no-cache, no-transform";

export async function articlesRoute(call: ApiCall): Promise<Response> {
  const query = queryParameters(call.url, ["limit", "cursor"]);
  const revision = wholeNumberParameter("revision", call.params.revision, { min: 0, max: 999_999_999 });
  if (revision === undefined) throw new ApiProblem("not-found", "There is no such revision.");
  const position = positionOf(call);
  const prepared = await prepareArticles(call.actor, position, revision);
  if (prefersXml(call.request.headers.get("accept"))) {
    if (query.size > 0)
      throw new ApiProblem("bad-request", "limit and cursor page the JSON list; the XML document comes whole.");
    const contentType = "application/xml; charset=utf-8";
    const download = subCatalogDownload(call.context.stores, prepared, { audience: "private", contentType });
    return downloadAnswer(call.request, { ...download, cacheControl: ARTICLE_CACHING }, refuseDownload);
  }
  const limit = wholeNumberParameter("limit", query.get("limit"), { min: 1, max: MAX_ARTICLE_PAGE, default: 1000 })!;
  const list = `articles:${position.supplierId}/${position.catalogId}/${revision}`;
  const cursor = query.get("cursor");
  let after: ArticlePosition | undefined;
  if (cursor !== undefined) {
    const decoded = decodeCursor(call.context.config.secretKey, list, cursor) as Partial<ArticlePosition> | null;
    if (typeof decoded?.articleNumber !== "string" || !Number.isInteger(decoded.customerGroup))
      throw new ApiProblem("bad-request", "The cursor is not one this API handed out.");
    after = { articleNumber: decoded.articleNumber, customerGroup: decoded.customerGroup! };
  }
  // A page is decided by the document's content and where the page starts and ends.
  const tag = createHash("sha256")
    .update(JSON.stringify([prepared.tag, limit, cursor ?? null]))
    .digest("base64url")
    .slice(0, 27);
  const page = async () => {
    const { articles, more } = await articlePage(call.actor, prepared, after, limit);
    const last = articles.at(-1);
    const next =
      more && last
        ? encodeCursor(call.context.config.secretKey, list, {
            articleNumber: last.articleNumber,
            customerGroup: last.customerGroup,
          })
        : null;
    return JSON.stringify({ items: articles.map(articleItem), next });
  };
  return downloadAnswer(
    call.request,
    {
      tag,
      lastModified: prepared.changedAt,
      cacheControl: ARTICLE_CACHING,
      contentType: "application/json",
      body: { text: page },
    },
    refuseDownload,
  );
}

const articleItem = (view: ArticleView) => ({
  articleNumber: view.articleNumber,
  customerGroup: view.customerGroup,
  whiteLabel: view.whiteLabel,
  name: view.name,
  purchasePrice: amount(view.purchasePriceCents),
  retailPrice: amount(view.retailPriceCents),
  startDate: view.startDate,
  endDate: view.endDate,
});
