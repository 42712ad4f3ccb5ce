import { handleCatalogSubmission } from "@/lib/interaction/catalog-submission";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleCatalogSubmission(request, getServiceContext());
