import { getServiceContext } from "@/lib/service-context";
import { handleUserinfoRequest } from "@/lib/oauth/userinfo-endpoint";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleUserinfoRequest(request, getServiceContext());
export const POST = GET;
