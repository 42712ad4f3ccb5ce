import { getDb } from "@/lib/db";
import { withCors } from "@/lib/oauth/cors";
import { handleJwksRequest } from "@/lib/oauth/keys/jwks-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

const cors = withCors(getDb, ["GET"], (request) => handleJwksRequest(request, getServiceContext()));
export const GET = cors.handle;
export const OPTIONS = cors.preflight;
