/**
 * The DPoP key of a token request (RFC 9449 §5): the thumbprint of the key its proof was signed with, or undefined
 * without a `DPoP` header. A client registered with `dpop_bound_access_tokens` must send a proof every time.
 */
import { invalidDpopProof } from "@/lib/errors/oauth-error";
import { ENDPOINTS } from "@/lib/http/paths";
import type { ProtocolRequest } from "@/lib/http/protocol-message";
import { acceptDpopProof, dpopHeader } from "@/lib/oauth/dpop/accept-dpop-proof";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";

export async function tokenRequestDpopKey(
  context: ServiceContext,
  request: ProtocolRequest,
  client: ClientWithSecrets,
): Promise<string | undefined> {
  const proof = dpopHeader(request.headers);
  if (proof === undefined) {
    if (client.dpopBoundAccessTokens)
      throw invalidDpopProof("this application must send a DPoP proof with every token request");
    return undefined;
  }
  // The endpoint as discovery names it: under plain `next start` the request's URL is the one Next.js rebuilt.
  const url = `${context.config.publicUrl}${ENDPOINTS.token}`;
  return (await acceptDpopProof(context, proof, { method: request.method, url })).jkt;
}
