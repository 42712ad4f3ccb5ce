import { getDb } from "@/lib/db";
import { withCors } from "@/lib/oauth/cors";
import { handleUserinfoRequest } from "@/lib/oauth/userinfo-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

const cors = withCors(getDb, ["GET", "POST"], (request) => handleUserinfoRequest(request, getServiceContext()));
export const GET = cors.handle;
export const POST = cors.handle;
export const OPTIONS = cors.preflight;
