import { handleIntrospectionRequest } from "@/lib/oauth/introspection-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleIntrospectionRequest(request, getServiceContext());
