/** GET /getSubCatalog.ashx: the streamed sub-catalog, or a plain-text error with the seed's status codes. */
import { CatalogServiceError, plainError, xmlResponse } from "@/lib/catalog/catalog-response";
import { parseSubCatalogQuery, prepareSubCatalog, subCatalogStream } from "@/lib/catalog/sub-catalog";
import { TicketError } from "@/lib/catalog/tickets";
import type { ServiceContext } from "@/lib/service-context";

export async function handleSubCatalogRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const prepared = await prepareSubCatalog(context.db, parseSubCatalogQuery(new URL(request.url)));
    return xmlResponse(subCatalogStream(context.db, prepared));
  } catch (error) {
    if (error instanceof CatalogServiceError || error instanceof TicketError) return plainError(error.status, error.message);
    console.error("getSubCatalog failed:", error);
    return plainError(500, "The catalog could not be produced. Please try again later.");
  }
}
