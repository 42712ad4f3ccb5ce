/**
 * POST /connect/revocation (RFC 7009). Refresh tokens are revoked together with the tokens rotated from the same
 * grant. Access tokens cannot be revoked, they expire: presenting one is unsupported_token_type. Unknown tokens, and
 * tokens of other clients (which stay untouched), answer 200 like a successful revocation, so that the endpoint
 * tells nobody which tokens exist.
 */
import { logger } from "@/lib/observability/logger";
import { optional } from "@/lib/oauth/request-parameters";
import { withAuthenticatedClient } from "@/lib/oauth/clients/with-authenticated-client";
import { invalidRequest, OAuthError } from "@/lib/errors/oauth-error";
import { NO_STORE_HEADERS } from "@/lib/http/no-store-json";
import { verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import type { ServiceContext } from "@/lib/service-context";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";

async function isAccessToken(context: ServiceContext, token: string): Promise<boolean> {
  if (token.split(".").length !== 3) return false;
  return verifyAccessToken(context, token, { audiences: "any" }).then(
    () => true,
    () => false,
  );
}

export function handleRevocationRequest(request: ProtocolRequest, context: ServiceContext): Promise<ProtocolResponse> {
  return withAuthenticatedClient(request, context, async (params, client) => {
    const token = optional(params, "token");
    if (token === undefined) throw invalidRequest("token is missing");
    const now = new Date();
    const row = await context.stores.refreshTokens.find(token);
    if (row && row.clientId === client.id && !row.revokedAt) {
      await context.stores.refreshTokens.revoke({ familyId: row.familyId }, now);
      await context.stores.audit.record({
        type: "token.revoked",
        userId: row.userId,
        clientId: client.id,
        details: { familyId: row.familyId },
      });
    } else if (row && row.clientId !== client.id) {
      logger.warn(
        { clientId: client.id, tokenClientId: row.clientId },
        "revocation: a refresh token of another client was presented; not revoked",
      );
    } else if (!row && (await isAccessToken(context, token))) {
      throw new OAuthError("unsupported_token_type", "access tokens cannot be revoked; they expire after one hour");
    }
    return { status: 200, headers: { ...NO_STORE_HEADERS }, body: "" };
  });
}
