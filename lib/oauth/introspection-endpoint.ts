/**
 * POST /connect/introspect (RFC 7662) for confidential clients. Access tokens are active while their signature,
 * issuer and expiry hold and their user is active, and are described only to their own client or to a client
 * registered as a resource server (`resource_server`, such as the platform API): RFC 7662 §4 warns against telling
 * any client about any token. Refresh tokens are described only to their own client, while neither revoked nor
 * expired. Everything else is {"active": false}. A token bound to a DPoP key shows it in `cnf.jkt`, an access token
 * so bound has token_type DPoP (RFC 9449 §6.2).
 */
import { optional } from "@/lib/oauth/request-parameters";
import { withAuthenticatedClient } from "@/lib/oauth/clients/with-authenticated-client";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidClient, invalidRequest } from "@/lib/errors/oauth-error";
import { noStoreBody } from "@/lib/http/no-store-json";
import { seconds } from "@/lib/oauth/token/jwt-tokens";
import { boundKeyOf, verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import type { ServiceContext } from "@/lib/service-context";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";
import { principalOf } from "@/lib/jwt/token-principal";

const INACTIVE = { active: false } as const;

async function introspectRefreshToken(context: ServiceContext, clientId: string, token: string, now: Date) {
  const row = await context.stores.refreshTokens.find(token);
  if (!row) return undefined;
  if (row.clientId !== clientId || row.revokedAt || row.expiresAt <= now) return INACTIVE;
  if (row.rotatedAt) return INACTIVE;
  return {
    active: true,
    token_type: "refresh_token",
    client_id: row.clientId,
    sub: row.userId,
    scope: row.scopes.join(" "),
    iat: seconds(row.createdAt),
    exp: seconds(row.expiresAt),
    iss: context.config.publicUrl,
    ...(row.dpopJkt ? { cnf: { jkt: row.dpopJkt } } : {}),
  };
}

async function introspectAccessToken(context: ServiceContext, caller: ClientWithSecrets, token: string) {
  try {
    const claims = await verifyAccessToken(context, token, { audiences: "any" });
    if (!caller.resourceServer && claims.client_id !== caller.id) return INACTIVE;
    const principal = principalOf(claims);
    if (principal?.kind === "user" && !(await context.stores.users.findActivity(principal.userId))?.active)
      return INACTIVE;
    return { active: true, token_type: boundKeyOf(claims) ? "DPoP" : "Bearer", ...claims };
  } catch {
    return INACTIVE;
  }
}

export function handleIntrospectionRequest(
  request: ProtocolRequest,
  context: ServiceContext,
): Promise<ProtocolResponse> {
  return withAuthenticatedClient(request, context, async (params, client) => {
    if (client.tokenEndpointAuthMethod === "none") throw invalidClient("introspection is for confidential clients");
    const token = optional(params, "token");
    if (token === undefined) throw invalidRequest("token is missing");
    const result =
      (await introspectRefreshToken(context, client.id, token, new Date())) ??
      (await introspectAccessToken(context, client, token));
    return noStoreBody(result);
  });
}
