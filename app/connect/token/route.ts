import { getDb } from "@/lib/db";
import { withCors } from "@/lib/oauth/cors";
import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

const cors = withCors(getDb, ["POST"], (request) => handleTokenRequest(request, getServiceContext()));
export const POST = cors.handle;
export const OPTIONS = cors.preflight;
