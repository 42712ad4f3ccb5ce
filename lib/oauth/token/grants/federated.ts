/**
 * The federation grants: `urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523 §2.1, the JWT in `assertion`) and
 * `urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693, the JWT in `subject_token`). Both turn a trusted
 * issuer's JWT for a user into an OptiGate access token for the local user (federated-assertion.ts). Every
 * outcome is an audit event (an issued token's in one commit with the use of its JWT); a refused grant writes
 * nothing else.
 */
import type { AuditEvent } from "@/lib/store/models/audit-event";
import {
  claimedIssuer,
  verifyFederatedAssertion,
  type FederatedIdentity,
} from "@/lib/oauth/federation/federated-assertion";
import { AssertionRefused } from "@/lib/jwt/signed-jwt";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidGrant, invalidTarget, OAuthError } from "@/lib/errors/oauth-error";
import { JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT } from "@/lib/oauth/grant-types";
import { grantedApiScopes } from "@/lib/oauth/token/api-scopes";
import { issueFederatedToken, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import { defaultAudience } from "@/lib/oauth/resource-indicators";
import { ACCESS_TOKEN_TYPE, type TokenRequest } from "@/lib/oauth/token/token-request";
import type { ServiceContext } from "@/lib/service-context";

type FederatedRequest = Extract<TokenRequest, { grantType: typeof JWT_BEARER_GRANT | typeof TOKEN_EXCHANGE_GRANT }>;

const NO_USER_SCOPES = "is not issued for a trusted issuer's token: federated grants give an access token only";

function checkTargets(context: ServiceContext, targets: string[]): void {
  const own = [defaultAudience(context.config.publicUrl), context.config.apiUrl, context.config.publicUrl];
  const foreign = targets.find((target) => !own.includes(target));
  if (foreign !== undefined) throw invalidTarget(`OptiGate issues tokens for its own API only, not for "${foreign}"`);
}

export async function acceptTrustedJwt(
  context: ServiceContext,
  client: ClientWithSecrets,
  request: FederatedRequest,
  now = new Date(),
): Promise<TokenResponseBody> {
  const jwt = request.grantType === JWT_BEARER_GRANT ? request.assertion : request.subjectToken;
  try {
    // Every `resource` sent (RFC 8707 lets it repeat), not only the first that `targets` holds.
    if (request.grantType === TOKEN_EXCHANGE_GRANT)
      checkTargets(context, [...request.targets, ...(request.resources ?? [])]);
    const scopes = grantedApiScopes(client, request.scope, NO_USER_SCOPES);
    const issued = (identity: FederatedIdentity): AuditEvent => ({
      type: "federation.token_issued",
      userId: identity.user.id,
      companyId: identity.user.companyId,
      clientId: client.id,
      details: {
        grantType: request.grantType,
        issuer: identity.issuer,
        subject: identity.subject,
        scope: scopes.join(" "),
      },
    });
    let identity: FederatedIdentity;
    try {
      identity = await verifyFederatedAssertion(
        {
          stores: context.stores,
          issuer: context.config.publicUrl,
          production: context.config.production,
          outboundAllow: context.config.outboundAllow,
        },
        client.id,
        jwt,
        issued,
        now,
      );
    } catch (error) {
      if (error instanceof AssertionRefused)
        throw invalidGrant(
          `the ${request.grantType === JWT_BEARER_GRANT ? "assertion" : "subject_token"} was refused: ${error.message}`,
        );
      throw error;
    }
    const body = await issueFederatedToken(context, client, identity, scopes, request.scope, request.dpopJkt, now);
    return request.grantType === TOKEN_EXCHANGE_GRANT ? { ...body, issued_token_type: ACCESS_TOKEN_TYPE } : body;
  } catch (error) {
    if (error instanceof OAuthError) {
      await context.stores.audit.record({
        type: "federation.token_refused",
        clientId: client.id,
        details: {
          grantType: request.grantType,
          issuer: claimedIssuer(jwt),
          error: error.code,
          reason: error.description,
        },
      });
    }
    throw error;
  }
}
