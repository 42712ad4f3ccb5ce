/**
 * grant_type=client_credentials (RFC 6749 §4.4) for confidential backend clients: the client acts on its own behalf,
 * with a subset of its API scopes (all of them when none are asked for). No user, no OpenID scopes, no refresh token.
 */
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { invalidScope } from "@/lib/oauth/errors";
import { OFFLINE_ACCESS, OPENID_SCOPES } from "@/lib/oauth/scopes";
import { issueClientTokens, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";

const USER_SCOPES: readonly string[] = [...OPENID_SCOPES, OFFLINE_ACCESS];

export async function clientCredentials(context: ServiceContext, client: ClientWithSecrets, request: Extract<TokenRequest, { grantType: "client_credentials" }>, now = new Date()): Promise<TokenResponseBody> {
  const allowed = client.allowedScopes.filter((scope) => !USER_SCOPES.includes(scope));
  const requested = request.scope;
  const scopes = requested === undefined ? allowed : [...new Set(requested.split(" ").filter(Boolean))];
  for (const scope of scopes) {
    if (USER_SCOPES.includes(scope)) throw invalidScope(`scope "${scope}" needs a user; client credentials act for no user`);
    if (!allowed.includes(scope)) throw invalidScope(`scope "${scope}" is not allowed for this client`);
  }
  if (scopes.length === 0) throw invalidScope("the client has no API scopes");
  return issueClientTokens(context, client, scopes, requested, now);
}
