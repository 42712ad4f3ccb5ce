/**
 * GET /getCatalogInfos.ashx: the catalog list, or a plain-text error (400 bad parameter, 401/403 ticket). The
 * anonymous list carries an ETag and may be revalidated: a matching If-None-Match is answered 304 without a body.
 */
import { catalogInfosDocument, parseCatalogInfosQuery } from "@/lib/catalog/catalog-infos";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { catalogErrorAnswer } from "@/lib/http/error-answers";
import { xmlResponse } from "@/lib/catalog/catalog-response";
import { matchesEntityTag } from "@/lib/http/entity-tags";
import type { ServiceContext } from "@/lib/service-context";

export async function handleCatalogInfosRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const document = await catalogInfosDocument(context.db, parseCatalogInfosQuery(new URL(request.url)));
    if (!document.etag) return xmlResponse(document.body);
    const headers = { ETag: document.etag, "Cache-Control": "no-cache" };
    if (matchesEntityTag(request.headers.get("if-none-match"), document.etag, "weak"))
      return new Response(null, { status: 304, headers });
    return xmlResponse(document.body, headers);
  } catch (error) {
    if (error instanceof CatalogServiceError) return catalogErrorAnswer(error);
    throw error; // the route's guard answers it (500, or 503 when the database is unreachable)
  }
}
