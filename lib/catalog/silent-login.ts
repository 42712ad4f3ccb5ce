/**
 * POST /services/login/SilentLogin: a catalog ticket for valid form credentials (`username`,
 * `password`), or, with `Authorization: Bearer` (or `DPoP` and a proof, for a key-bound token) and no form, for the
 * user of an access token that holds the catalogs read scope and is for the catalog services (`PUBLIC_URL/services`,
 * RFC 8707) or has the default audience. Answers `{"ticket": "<GUID>", "expires": "<ISO 8601>"}`; bad credentials 401, throttled 429.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { readForm } from "@/lib/http/form-body";
import { issueTicket } from "@/lib/catalog/tickets";
import { noStoreJson } from "@/lib/http/no-store-json";
import { boundKeyOf, noteTokenCaller, verifyAccessToken } from "@/lib/oauth/token/verify-access-token";
import { OAuthError } from "@/lib/errors/oauth-error";
import { acceptedAudiences } from "@/lib/oauth/resource-indicators";
import {
  checkSenderConstraint,
  readAuthorization,
  refusalHeaders,
  resourceRefusal,
  type PresentedToken,
} from "@/lib/oauth/dpop/presented-token";
import type { ServiceContext } from "@/lib/service-context";
import { isSsoOnlyAddress } from "@/lib/session/sso-only-address";
import { verifyCredentials } from "@/lib/session/verify-credentials";
import { countSignIn } from "@/lib/observability/metrics";
import { userIdOf } from "@/lib/jwt/token-principal";
import { ACR_MFA } from "@/lib/session/authentication-level";
import { noteUser } from "@/lib/observability/request-context";

const failure = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  noStoreJson({ error, error_description: description }, status, headers);

async function ticketResponse(context: ServiceContext, userId: string): Promise<Response> {
  const { ticket, expires } = await issueTicket(context.stores.tickets, userId);
  return noStoreJson({ ticket, expires: expires.toISOString() });
}

async function withAccessToken(
  context: ServiceContext,
  request: Request,
  presented: PresentedToken,
): Promise<Response> {
  let claims;
  try {
    claims = await verifyAccessToken(context, presented.token, {
      audiences: acceptedAudiences(context.config, "catalogServices"),
    });
    noteTokenCaller(claims);
    const url = `${context.config.publicUrl}${ENDPOINTS.silentLogin}`;
    await checkSenderConstraint(context, presented, boundKeyOf(claims), {
      method: "POST",
      url,
      headers: request.headers,
    });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const refusal = resourceRefusal(error, presented.scheme);
    return failure(refusal.status, refusal.code, refusal.description, refusalHeaders(refusal));
  }
  const scope = `${context.config.apiScopePrefix}.catalogs.read`;
  if (!claims.scope.split(" ").includes(scope))
    return failure(403, "insufficient_scope", `the access token needs the scope ${scope}`, {
      "WWW-Authenticate": `Bearer realm="OptiGate", error="insufficient_scope", scope="${scope}"`,
    });
  const userId = userIdOf(claims);
  const user = userId === undefined ? null : await context.stores.users.find(userId);
  if (!user) return failure(403, "invalid_grant", "the access token was issued to a client, not to a user");
  if (!user.active) return failure(403, "account_disabled", "the user is no longer active");
  // Everything of the user was signed out after this token was issued (a reset, a change of password).
  if (user.signedOutAt && (claims.iat ?? 0) < Math.floor(user.signedOutAt.getTime() / 1000))
    return failure(401, "invalid_token", "the access token is from before the user was signed out everywhere", {
      "WWW-Authenticate": 'Bearer realm="OptiGate", error="invalid_token"',
    });
  // As the password form below: a company that requires a second factor gets tickets only for tokens of that level.
  if (user.company.requireSecondFactor && claims.acr !== ACR_MFA)
    return failure(403, "insufficient_user_authentication", "this company requires a second factor: sign in with it", {
      "WWW-Authenticate": `Bearer realm="OptiGate", error="insufficient_user_authentication", acr_values="${ACR_MFA}"`,
    });
  return ticketResponse(context, user.id);
}

export async function handleSilentLogin(request: Request, context: ServiceContext): Promise<Response> {
  const form = await readForm(request);
  const authorization = request.headers.get("authorization") ?? "";
  const presented = /^(bearer|dpop) /i.test(authorization) ? readAuthorization(authorization) : undefined;
  if (presented !== undefined && !form.has("username")) {
    if (presented === "malformed")
      return failure(401, "invalid_token", "the Authorization header must be Bearer or DPoP followed by a token", {
        "WWW-Authenticate": 'Bearer realm="OptiGate", error="invalid_token"',
      });
    return withAccessToken(context, request, presented);
  }

  const username = form.get("username") ?? "";
  const password = form.get("password") ?? "";
  if (!username || !password)
    return failure(400, "invalid_request", "send username and password as form fields, or an access token");
  // As on the login page: a company that allows only its own sign-in refuses passwords, before one is checked.
  if (await isSsoOnlyAddress(context.stores, username.trim().toLowerCase()))
    return failure(403, "sso_only", "this account signs in at its company's provider: send an access token");
  const check = await verifyCredentials(
    context,
    username,
    password,
    clientAddress(request, context.config.trustedProxies),
  );
  if (check.ok) {
    noteUser(check.user.id);
    // A password alone must not be a way around the second factor: such accounts use the access token form.
    const factors = await context.stores.secondFactors.count(check.user.id);
    if (factors.passkeys > 0 || factors.totp || factors.required) {
      countSignIn("password", "second_factor_required");
      return failure(403, "second_factor_required", "this account signs in with a second factor: send an access token");
    }
    const ticket = await ticketResponse(context, check.user.id);
    countSignIn("password", "success");
    return ticket;
  }
  if (check.reason === "throttled")
    return failure(429, "throttled", "too many failed attempts; try again later", {
      "Retry-After": String(check.retryAfterSeconds),
    });
  if (check.reason === "account_disabled") return failure(403, "account_disabled", "the user is no longer active");
  return failure(401, "invalid_credentials", "the user name or password is not correct");
}
