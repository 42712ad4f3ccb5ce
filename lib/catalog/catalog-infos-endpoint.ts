/** GET /getCatalogInfos.ashx: the catalog list, or a plain-text error (400 bad parameter, 401/403 ticket). */
import { catalogInfosXml, parseCatalogInfosQuery } from "@/lib/catalog/catalog-infos";
import { CatalogServiceError, plainError, xmlResponse } from "@/lib/catalog/catalog-response";
import { TicketError } from "@/lib/catalog/tickets";
import type { ServiceContext } from "@/lib/service-context";

export async function handleCatalogInfosRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    return xmlResponse(await catalogInfosXml(context.db, parseCatalogInfosQuery(new URL(request.url))));
  } catch (error) {
    if (error instanceof CatalogServiceError || error instanceof TicketError) return plainError(error.status, error.message);
    console.error("getCatalogInfos failed:", error);
    return plainError(500, "The catalog list could not be produced. Please try again later.");
  }
}
