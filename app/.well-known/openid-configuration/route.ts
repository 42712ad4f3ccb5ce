import { getDb } from "@/lib/db";
import { withCors } from "@/lib/oauth/cors";
import { handleDiscoveryRequest } from "@/lib/oauth/discovery";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

const cors = withCors(getDb, ["GET"], (request) => handleDiscoveryRequest(request, getServiceContext()));
export const GET = cors.handle;
export const OPTIONS = cors.preflight;
