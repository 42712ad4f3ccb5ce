/**
 * GET /getCatalogInfos.ashx: the catalog list (compressed and revalidated as the request asks), or a plain-text error
 * (400 bad parameter, 401/403 ticket). The anonymous list is the same for everyone; a customer's is private.
 */
import { catalogInfosDocument, parseCatalogInfosQuery } from "@/lib/catalog/catalog-infos";
import { refuseCatalogDownload, XML_CONTENT_TYPE } from "@/lib/catalog/catalog-response";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { downloadAnswer } from "@/lib/http/download-answer";
import { catalogErrorAnswer } from "@/lib/http/error-answers";
import type { ServiceContext } from "@/lib/service-context";

export async function handleCatalogInfosRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const query = parseCatalogInfosQuery(new URL(request.url));
    const document = await catalogInfosDocument(context, query);
    return await downloadAnswer(
      request,
      {
        tag: document.tag,
        lastModified: document.lastModified,
        cacheControl: `${query.ticket ? "private" : "public"}, no-cache, no-transform`,
        contentType: XML_CONTENT_TYPE,
        body: { text: () => document.body },
      },
      refuseCatalogDownload,
    );
  } catch (error) {
    if (error instanceof CatalogServiceError) return catalogErrorAnswer(error);
    throw error; // the route's guard answers it (500, or 503 when the database is unreachable)
  }
}
