/** GET /getSubCatalog.ashx: the streamed sub-catalog, or a plain-text error with the seed's status codes. */
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { catalogErrorAnswer } from "@/lib/http/error-answers";
import { xmlResponse } from "@/lib/catalog/catalog-response";
import { parseSubCatalogQuery, prepareSubCatalog, readerOfTicket, subCatalogStream } from "@/lib/catalog/sub-catalog";
import { markStreamed } from "@/lib/http/streamed-response";
import type { ServiceContext } from "@/lib/service-context";

export async function handleSubCatalogRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const query = parseSubCatalogQuery(new URL(request.url));
    const prepared = await prepareSubCatalog(
      context.db,
      query,
      await readerOfTicket(context.db, query.ticket),
      query.clientGroupId,
    );
    return markStreamed(xmlResponse(subCatalogStream(context.db, prepared)));
  } catch (error) {
    if (error instanceof CatalogServiceError) return catalogErrorAnswer(error);
    throw error; // the route's guard answers it (500, or 503 when the database is unreachable)
  }
}
