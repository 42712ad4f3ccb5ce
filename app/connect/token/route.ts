import { getServiceContext } from "@/lib/service-context";
import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleTokenRequest(request, getServiceContext());
