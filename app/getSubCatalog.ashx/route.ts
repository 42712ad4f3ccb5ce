import { handleSubCatalogRequest } from "@/lib/catalog/sub-catalog-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleSubCatalogRequest(request, getServiceContext());
