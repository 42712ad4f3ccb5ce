/**
 * POST /connect/token: authenticate the client, validate the request (token-request.ts), accept its DPoP proof when
 * it has one (lib/oauth/dpop/), then run its grant. The request and the tokens it hands out are counted.
 */
import { withAuthenticatedClient } from "@/lib/oauth/clients/with-authenticated-client";
import { formValues } from "@/lib/oauth/request-parameters";
import { countIssuedTokens, grantLabel, metrics } from "@/lib/observability/metrics";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";
import { noStoreBody } from "@/lib/http/no-store-json";
import { tokenRequestDpopKey } from "@/lib/oauth/dpop/token-request-key";
import { redeemCode } from "@/lib/oauth/token/grants/authorization-code";
import { issueClientCredentials } from "@/lib/oauth/token/grants/client-credentials";
import { acceptTrustedJwt } from "@/lib/oauth/token/grants/federated";
import { refresh } from "@/lib/oauth/token/grants/refresh-token";
import { redeemDeviceCode } from "@/lib/oauth/token/grants/device-code";
import { DEVICE_CODE_GRANT, JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT } from "@/lib/oauth/grant-types";
import type { TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import { refuseSandboxBeyondCodeFlow } from "@/lib/oauth/authorize/vendor-sign-in";
import { validateTokenRequest, type GrantType, type TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { tallyActivity } from "@/lib/store/activity-tally";

type GrantHandler<G extends GrantType> = (
  context: ServiceContext,
  client: ClientWithSecrets,
  request: Extract<TokenRequest, { grantType: G }>,
) => Promise<TokenResponseBody>;

/** One handler per grant type that validateTokenRequest accepts; a new grant type does not compile without one. */
const GRANT_HANDLERS: { [G in GrantType]: GrantHandler<G> } = {
  authorization_code: redeemCode,
  refresh_token: refresh,
  client_credentials: issueClientCredentials,
  [JWT_BEARER_GRANT]: acceptTrustedJwt,
  [TOKEN_EXCHANGE_GRANT]: acceptTrustedJwt,
  [DEVICE_CODE_GRANT]: redeemDeviceCode,
};

function runGrant<G extends GrantType>(
  context: ServiceContext,
  client: ClientWithSecrets,
  request: Extract<TokenRequest, { grantType: G }>,
): Promise<TokenResponseBody> {
  // TypeScript cannot correlate the handler with the request's variant; the mapped type above guarantees it.
  const handler = GRANT_HANDLERS[request.grantType as G] as GrantHandler<G>;
  return handler(context, client, request);
}

export function handleTokenRequest(request: ProtocolRequest, context: ServiceContext): Promise<ProtocolResponse> {
  return withAuthenticatedClient(request, context, async (params, client) => {
    refuseSandboxBeyondCodeFlow(client, params.get("grant_type"));
    const tokenRequest = validateTokenRequest(params, client);
    tokenRequest.resources = formValues(request, "resource");
    tokenRequest.dpopJkt = await tokenRequestDpopKey(context, request, client);
    const body = await runGrant(context, client, tokenRequest);
    const grant = grantLabel(tokenRequest.grantType);
    metrics.tokenRequests.inc({ grant, result: "issued" });
    // A refresh token the client sent is handed back as it is under the reuse policy: it is not a new one.
    const handedBack = tokenRequest.grantType === "refresh_token" && body.refresh_token === tokenRequest.refreshToken;
    countIssuedTokens(grant, { ...body, refresh_token: handedBack ? undefined : body.refresh_token });
    tallyActivity(context.stores.activity, client.companyId ?? client.ownerCompanyId ?? "", `token.${grant}`);
    return noStoreBody(body);
  });
}
