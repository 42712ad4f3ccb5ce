import { handleCatalogInfosRequest } from "@/lib/catalog/catalog-infos-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleCatalogInfosRequest(request, getServiceContext());
