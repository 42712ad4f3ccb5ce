/**
 * grant_type=client_credentials (RFC 6749 §4.4) for confidential backend clients: the client acts on its own behalf,
 * with a subset of its API scopes (all of them when none are asked for), for the resource server it names (RFC 8707).
 * No user, no OpenID scopes, no refresh token.
 */
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { grantedApiScopes } from "@/lib/oauth/token/api-scopes";
import { tokenAudience } from "@/lib/oauth/resource-indicators";
import { issueClientTokens, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";

export async function issueClientCredentials(
  context: ServiceContext,
  client: ClientWithSecrets,
  request: Extract<TokenRequest, { grantType: "client_credentials" }>,
  now = new Date(),
): Promise<TokenResponseBody> {
  const scopes = grantedApiScopes(client, request.scope, "needs a user; client credentials act for no user");
  // No authorization request named resources: the client may ask for any it may reach.
  const audience = tokenAudience(context.config, client, request.resources ?? [], []);
  const { scope: requestedScope, dpopJkt } = request;
  return issueClientTokens(context, client, { scopes, requestedScope, dpopJkt, audience }, now);
}
