/**
 * GET|POST /connect/userinfo (OpenID Connect Core §5.3): the signed-in user's claims, by the scopes the access token
 * carries. The token comes in the Authorization header (RFC 6750 §2.1) or, for POST, the form body (§2.2).
 */
import { isFormRequest, readBodyText } from "@/lib/http/form-body";
import { invalidRequest, OAuthError } from "@/lib/errors/oauth-error";
import { noStoreJson } from "@/lib/http/no-store-json";
import { oauthErrorAnswer } from "@/lib/http/error-answers";
import { verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import { userClaims } from "@/lib/oauth/user-claims";
import type { ServiceContext } from "@/lib/service-context";
import { webResponse } from "@/lib/http/protocol-message";
import { findUser } from "@/lib/store/user-store";

async function readBearerToken(request: Request): Promise<string | undefined> {
  const header = request.headers.get("authorization");
  const fromHeader = header && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
  const fromBody =
    request.method === "POST" && isFormRequest(request)
      ? (new URLSearchParams(await readBodyText(request)).get("access_token") ?? undefined)
      : undefined;
  if (fromHeader && fromBody) throw invalidRequest("send the access token in one place only");
  return fromHeader || fromBody;
}

function bearerError(error: OAuthError): Response {
  const challenge = `Bearer realm="OptiGate", error="${error.code}", error_description="${error.description.replace(/"/g, "'")}"`;
  return noStoreJson({ error: error.code, error_description: error.description }, error.status, {
    "WWW-Authenticate": challenge,
  });
}

export async function handleUserinfoRequest(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const token = await readBearerToken(request);
    if (!token)
      return noStoreJson({ error: "invalid_token", error_description: "an access token is required" }, 401, {
        "WWW-Authenticate": 'Bearer realm="OptiGate"',
      });
    const claims = await verifyAccessToken(context, token);
    const scopes = claims.scope.split(" ");
    if (!scopes.includes("openid"))
      throw new OAuthError(
        "insufficient_scope",
        "the access token was not issued for OpenID Connect (scope openid)",
        403,
      );
    const user = await findUser(context.db, claims.sub);
    if (!user || !user.active)
      throw new OAuthError("invalid_token", "the user of this access token is no longer active", 401);
    return noStoreJson({ sub: user.id, ...userClaims(user, scopes) });
  } catch (error) {
    return error instanceof OAuthError ? bearerError(error) : webResponse(oauthErrorAnswer(error));
  }
}
