/** POST /connect/token: authenticate the client, then run the grant it asks for. */
import { optional, type Parameters } from "@/lib/http/request-parameters";
import { handleClientRequest } from "@/lib/oauth/clients/client-endpoint";
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { invalidRequest, OAuthError, unauthorizedClient } from "@/lib/oauth/errors";
import { noStoreJson } from "@/lib/oauth/json-response";
import { redeemAuthorizationCode } from "@/lib/oauth/token/grants/authorization-code";
import { clientCredentials } from "@/lib/oauth/token/grants/client-credentials";
import { refreshTokens } from "@/lib/oauth/token/grants/refresh-token";
import type { TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { ServiceContext } from "@/lib/service-context";

type Grant = (context: ServiceContext, client: ClientWithSecrets, params: Parameters) => Promise<TokenResponseBody>;

const GRANTS: Record<string, Grant> = {
  authorization_code: redeemAuthorizationCode,
  refresh_token: refreshTokens,
  client_credentials: clientCredentials,
};

export function handleTokenRequest(request: Request, context: ServiceContext): Promise<Response> {
  return handleClientRequest(request, context, async (params, client) => {
    const grantType = optional(params, "grant_type");
    if (grantType === undefined) throw invalidRequest("grant_type is missing");
    const grant = GRANTS[grantType];
    if (!grant) throw new OAuthError("unsupported_grant_type", `grant_type "${grantType}" is not supported`);
    if (!client.grantTypes.includes(grantType)) throw unauthorizedClient(`this client may not use grant_type "${grantType}"`);
    return noStoreJson(await grant(context, client, params));
  });
}
