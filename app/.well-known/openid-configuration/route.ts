import { getConfig } from "@/lib/config";
import { discoveryDocument } from "@/lib/oauth/discovery";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return Response.json(discoveryDocument(getConfig()), { headers: { "Cache-Control": "public, max-age=3600" } });
}
