/**
 * The implicit flow's answer (OAuth 2.0 Multiple Response Types, OpenID Connect Core §3.2): an access token and/or an
 * ID token handed straight to the browser app, never a refresh token. An ID token that comes without an access token
 * carries the profile and email claims itself, as there is no token to call userinfo with. The tokens are counted
 * as issued by the implicit grant.
 */
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "@/lib/config/policy";
import type { AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { signAccessToken, signIdToken } from "@/lib/oauth/token/jwt-tokens";
import { userClaims } from "@/lib/oauth/user-claims";
import type { ServiceContext } from "@/lib/service-context";
import { countIssuedTokens } from "@/lib/observability/metrics";
import type { ActiveSession } from "@/lib/session/login-session";
import { tallyActivity } from "@/lib/store/activity-tally";

export async function implicitResponseValues(
  context: ServiceContext,
  request: AuthorizationRequest,
  session: ActiveSession,
  scopes: string[],
  now = new Date(),
): Promise<Record<string, string>> {
  const user = await context.stores.users.find(session.user.id);
  if (!user) throw new Error(`the user ${session.user.id} of the session is gone`);
  const values: Record<string, string> = {};
  let accessToken: string | undefined;
  if (request.responseType.includes("token") && request.responseType !== "id_token") {
    accessToken = await signAccessToken(
      context,
      {
        clientId: request.client.id,
        scopes,
        user,
        authTime: session.authTime,
        amr: session.amr,
        // One at most: authorization-request.ts refuses more for a response with an access token.
        audience: request.resources[0],
      },
      now,
    );
    Object.assign(values, {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: String(ACCESS_TOKEN_LIFETIME_SECONDS),
    });
    if ([...scopes].sort().join(" ") !== [...request.scopes].sort().join(" ")) values.scope = scopes.join(" ");
  }
  if (request.responseType.includes("id_token")) {
    values.id_token = await signIdToken(
      context,
      {
        client: request.client,
        user,
        authTime: session.authTime,
        amr: session.amr,
        nonce: request.nonce,
        sessionId: session.id,
        accessToken,
        // Without an access token there is no userinfo call to make; id_token_claims asks for them in any case.
        userClaims: accessToken && !request.client.idTokenClaims ? undefined : userClaims(user, scopes),
      },
      now,
    );
  }
  await context.stores.consents.markUsed({ userId: user.id, clientId: request.client.id }, now);
  countIssuedTokens("implicit", values);
  const { companyId, ownerCompanyId } = request.client;
  tallyActivity(context.stores.activity, companyId ?? ownerCompanyId ?? "", "token.implicit");
  return values;
}
