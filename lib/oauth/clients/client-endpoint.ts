/**
 * The shape shared by the endpoints where clients authenticate (token, revocation, introspection): read the form,
 * authenticate the client, do the work; any failure becomes an RFC 6749 §5.2 error response.
 */
import { readFormParameters, type Parameters } from "@/lib/http/request-parameters";
import { authenticateClient, readClientCredentials, usesBasicAuthentication } from "@/lib/oauth/clients/client-authentication";
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { oauthErrorResponse } from "@/lib/oauth/json-response";
import type { ServiceContext } from "@/lib/service-context";

export async function handleClientRequest(
  request: Request,
  context: ServiceContext,
  work: (params: Parameters, client: ClientWithSecrets) => Promise<Response>,
): Promise<Response> {
  try {
    const params = await readFormParameters(request);
    const client = await authenticateClient(context.db, readClientCredentials(request, params));
    return await work(params, client);
  } catch (error) {
    return oauthErrorResponse(error, { basicAuthentication: usesBasicAuthentication(request) });
  }
}
