/**
 * POST /connect/token: authenticate the client, validate the request (token-request.ts), accept its DPoP proof when
 * it has one (lib/oauth/dpop/), then run its grant.
 */
import { withAuthenticatedClient } from "@/lib/oauth/clients/with-authenticated-client";
import { grantLabel, metrics } from "@/lib/observability/metrics";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";
import { noStoreBody } from "@/lib/http/no-store-json";
import { tokenRequestDpopKey } from "@/lib/oauth/dpop/token-request-key";
import { redeemAuthorizationCode } from "@/lib/oauth/token/grants/authorization-code";
import { clientCredentials } from "@/lib/oauth/token/grants/client-credentials";
import { federatedGrant } from "@/lib/oauth/token/grants/federated";
import { refreshTokens } from "@/lib/oauth/token/grants/refresh-token";
import type { TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import { validateTokenRequest, type TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/client-store";

function runGrant(
  context: ServiceContext,
  client: ClientWithSecrets,
  request: TokenRequest,
): Promise<TokenResponseBody> {
  switch (request.grantType) {
    case "authorization_code":
      return redeemAuthorizationCode(context, client, request);
    case "refresh_token":
      return refreshTokens(context, client, request);
    case "client_credentials":
      return clientCredentials(context, client, request);
    default:
      return federatedGrant(context, client, request);
  }
}

export function handleTokenRequest(request: ProtocolRequest, context: ServiceContext): Promise<ProtocolResponse> {
  return withAuthenticatedClient(request, context, async (params, client) => {
    const tokenRequest = validateTokenRequest(params, client);
    tokenRequest.dpopJkt = await tokenRequestDpopKey(context, request, client);
    const body = await runGrant(context, client, tokenRequest);
    metrics.tokenRequests.inc({ grant: grantLabel(tokenRequest.grantType), result: "issued" });
    return noStoreBody(body);
  });
}
