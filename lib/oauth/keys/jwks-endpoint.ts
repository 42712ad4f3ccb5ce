import type { ServiceContext } from "@/lib/service-context";

/** GET the JWKS. A short cache: after a rotation relying parties see the new key within minutes (and refetch on an unknown kid). */
export async function handleJwksRequest(_request: Request, context: ServiceContext): Promise<Response> {
  const keys = await context.stores.signingKeys.keySet(context.config.secretKey);
  return Response.json(keys.jwks, { headers: { "Cache-Control": "public, max-age=300" } });
}
