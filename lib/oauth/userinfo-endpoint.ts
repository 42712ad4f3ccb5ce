/**
 * GET|POST /connect/userinfo (OpenID Connect Core §5.3): the signed-in user's claims, by the scopes the access token
 * carries. The token comes in the Authorization header, as Bearer (RFC 6750 §2.1) or, bound to a key, as DPoP with a
 * proof (RFC 9449 §7), or, for POST, as a bearer token in the form body (RFC 6750 §2.2). A token requested for a
 * resource server (RFC 8707) is that server's: only one with the default audience is taken here.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { isFormRequest, readBodyText } from "@/lib/http/form-body";
import { invalidRequest, OAuthError } from "@/lib/errors/oauth-error";
import { noStoreJson } from "@/lib/http/no-store-json";
import { oauthErrorAnswer } from "@/lib/http/error-answers";
import {
  checkSenderConstraint,
  readAuthorization,
  refusalHeaders,
  resourceChallenge,
  resourceRefusal,
  type ResourceRefusal,
  type PresentedToken,
} from "@/lib/oauth/dpop/presented-token";
import { boundKeyOf, noteTokenCaller, verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import { userClaims } from "@/lib/oauth/user-claims";
import { acceptedAudiences } from "@/lib/oauth/resource-indicators";
import type { ServiceContext } from "@/lib/service-context";
import { webResponse } from "@/lib/http/protocol-message";
import { userIdOf } from "@/lib/jwt/token-principal";

async function readPresentedToken(request: Request): Promise<PresentedToken | undefined> {
  const header = readAuthorization(request.headers.get("authorization"));
  const fromHeader = header === "malformed" ? undefined : header;
  const fromBody =
    request.method === "POST" && isFormRequest(request)
      ? (new URLSearchParams(await readBodyText(request)).get("access_token") ?? undefined)
      : undefined;
  if (fromHeader && fromBody) throw invalidRequest("send the access token in one place only");
  return fromHeader ?? (fromBody ? { scheme: "Bearer", token: fromBody } : undefined);
}

function refusalAnswer(refusal: ResourceRefusal): Response {
  return noStoreJson(
    { error: refusal.code, error_description: refusal.description },
    refusal.status,
    refusalHeaders(refusal),
  );
}

async function userinfo(request: Request, context: ServiceContext, presented: PresentedToken): Promise<Response> {
  const claims = await verifyAccessToken(context, presented.token, {
    audiences: acceptedAudiences(context.config, "userinfo"),
  });
  noteTokenCaller(claims);
  const url = `${context.config.publicUrl}${ENDPOINTS.userinfo}`;
  await checkSenderConstraint(context, presented, boundKeyOf(claims), {
    method: request.method,
    url,
    headers: request.headers,
  });
  const userId = userIdOf(claims);
  if (userId === undefined)
    throw new OAuthError(
      "invalid_token",
      "the access token was issued to a client acting for itself, not to a user",
      401,
    );
  const scopes = claims.scope.split(" ");
  if (!scopes.includes("openid"))
    throw new OAuthError(
      "insufficient_scope",
      "the access token was not issued for OpenID Connect (scope openid)",
      403,
    );
  const user = await context.stores.users.find(userId);
  if (!user || !user.active)
    throw new OAuthError("invalid_token", "the user of this access token is no longer active", 401);
  return noStoreJson({ sub: user.id, ...userClaims(user, scopes) });
}

export async function handleUserinfoRequest(request: Request, context: ServiceContext): Promise<Response> {
  let presented: PresentedToken | undefined;
  try {
    presented = await readPresentedToken(request);
    if (!presented)
      return noStoreJson({ error: "invalid_token", error_description: "an access token is required" }, 401, {
        "WWW-Authenticate": resourceChallenge(),
      });
    return await userinfo(request, context, presented);
  } catch (error) {
    if (error instanceof OAuthError) return refusalAnswer(resourceRefusal(error, presented?.scheme ?? "Bearer"));
    return webResponse(oauthErrorAnswer(error));
  }
}
