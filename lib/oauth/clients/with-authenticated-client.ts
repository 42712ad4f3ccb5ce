/**
 * Authenticates the client around the work of an endpoint where clients authenticate (token, revocation,
 * introspection): read the form, authenticate the client, then do the work for it; any failure becomes an
 * RFC 6749 §5.2 error response.
 */
import { clientAddress } from "@/lib/http/client-address";
import { currentRequest, noteClient } from "@/lib/observability/request-context";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";
import { formParameters, type Parameters } from "@/lib/oauth/request-parameters";
import {
  authenticateClient,
  readClientCredentials,
  usesBasicAuthentication,
} from "@/lib/oauth/clients/client-authentication";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { oauthErrorAnswer } from "@/lib/http/error-answers";
import type { ServiceContext } from "@/lib/service-context";

export async function withAuthenticatedClient(
  request: ProtocolRequest,
  context: ServiceContext,
  work: (params: Parameters, client: ClientWithSecrets) => Promise<ProtocolResponse>,
): Promise<ProtocolResponse> {
  try {
    const params = formParameters(request);
    const logged = currentRequest();
    if (logged) logged.grantType = params.get("grant_type");
    const credentials = readClientCredentials(request, params, context.config.publicUrl);
    const client = await authenticateClient(
      context,
      credentials,
      clientAddress(request, context.config.trustedProxies),
    );
    noteClient(client.id);
    return await work(params, client);
  } catch (error) {
    return oauthErrorAnswer(error, { basicAuthentication: usesBasicAuthentication(request) });
  }
}
