/**
 * GET /getSubCatalog.ashx: the streamed sub-catalog (compressed, revalidated or resumed as the request asks), or a
 * plain-text error with the legacy service's status codes.
 */
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { catalogErrorAnswer } from "@/lib/http/error-answers";
import { downloadAnswer } from "@/lib/http/download-answer";
import { subCatalogDownload } from "@/lib/catalog/sub-catalog-download";
import { refuseCatalogDownload, XML_CONTENT_TYPE } from "@/lib/catalog/catalog-response";
import { parseSubCatalogQuery, prepareSubCatalog, readerOfTicket } from "@/lib/catalog/sub-catalog";
import type { ServiceContext } from "@/lib/service-context";

export async function handleSubCatalogRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const query = parseSubCatalogQuery(new URL(request.url));
    const reader = await readerOfTicket(context.stores.tickets, query.ticket);
    const prepared = await prepareSubCatalog(context.stores, query, reader, query.clientGroupId);
    const audience = reader.kind === "public" ? "public" : "private";
    const download = subCatalogDownload(context.stores, prepared, { audience, contentType: XML_CONTENT_TYPE });
    return await downloadAnswer(request, download, refuseCatalogDownload);
  } catch (error) {
    if (error instanceof CatalogServiceError) return catalogErrorAnswer(error);
    throw error; // the route's guard answers it (500, or 503 when the database is unreachable)
  }
}
