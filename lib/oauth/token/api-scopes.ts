/**
 * The API scopes of a token that carries no ID token and no refresh token (client credentials, federated grants):
 * those asked for, each allowed for the client, or all of the client's API scopes when none are asked for.
 */
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidScope } from "@/lib/errors/oauth-error";
import { OFFLINE_ACCESS, OPENID_SCOPES } from "@/lib/oauth/scopes";

const USER_SCOPES: readonly string[] = [...OPENID_SCOPES, OFFLINE_ACCESS];

/** `refusal` explains why the grant gives no OpenID or offline scope. */
export function grantedApiScopes(client: ClientWithSecrets, requested: string | undefined, refusal: string): string[] {
  const allowed = client.allowedScopes.filter((scope) => !USER_SCOPES.includes(scope));
  const scopes = requested === undefined ? allowed : [...new Set(requested.split(" ").filter(Boolean))];
  for (const scope of scopes) {
    if (USER_SCOPES.includes(scope)) throw invalidScope(`scope "${scope}" ${refusal}`);
    if (!allowed.includes(scope)) throw invalidScope(`scope "${scope}" is not allowed for this client`);
  }
  if (scopes.length === 0) throw invalidScope("the client has no API scopes");
  return scopes;
}
