import { handleAuthorizeRequest } from "@/lib/oauth/authorize/authorize-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleAuthorizeRequest(request, getServiceContext());
export const POST = GET;
