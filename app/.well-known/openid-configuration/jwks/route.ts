import { getServiceContext } from "@/lib/service-context";
import { getKeySet } from "@/lib/oauth/keys/key-store";

export const dynamic = "force-dynamic";

/** Short cache: after a rotation, relying parties see the new key within minutes (they also refetch on unknown kid). */
export async function GET(): Promise<Response> {
  const { db, config } = getServiceContext();
  const keys = await getKeySet(db, config.secretKey);
  return Response.json(keys.jwks, { headers: { "Cache-Control": "public, max-age=300" } });
}
