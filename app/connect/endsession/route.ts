import { handleEndSessionRequest } from "@/lib/oauth/endsession/end-session-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleEndSessionRequest(request, getServiceContext());
export const POST = GET;
