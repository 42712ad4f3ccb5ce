/**
 * An authorization request as the authorization endpoint and the consent step read it: its own parameters, or, with
 * `request_uri` and `client_id`, only the parameters that client pushed (RFC 9126 §4), validated the same way. A
 * request_uri that is unknown, another client's, expired or used is shown on OptiGate's own error page: nothing
 * verified says where to redirect.
 */
import { UnsafeRedirectError } from "@/lib/errors/oauth-error";
import { validateAuthorizationRequest, type AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import type { ServiceContext } from "@/lib/service-context";
import type { PushedRequestRefusal } from "@/lib/store/pushed-request-store";

export const REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

const REFUSALS: Record<PushedRequestRefusal, string> = {
  unknown: "request_uri is not one OptiGate handed out to this application",
  expired: "request_uri has expired: push the request again",
  used: "request_uri was used already: push the request again",
};

async function pushedParameters(
  context: ServiceContext,
  params: URLSearchParams,
  requestUri: string,
  now: Date,
): Promise<{ parameters: URLSearchParams; startedAt: Date }> {
  if (params.getAll("request_uri").length > 1)
    throw new UnsafeRedirectError("invalid_request", 'parameter "request_uri" must not be repeated');
  const clientId = params.getAll("client_id").length === 1 ? params.get("client_id") : null;
  if (!clientId) throw new UnsafeRedirectError("invalid_request", "client_id must come with request_uri");
  const pushed = await context.stores.authorizationRequests.startPushed(
    requestUri.slice(REQUEST_URI_PREFIX.length),
    clientId,
    now,
  );
  if (typeof pushed === "string") throw new UnsafeRedirectError("invalid_request", REFUSALS[pushed]);
  return pushed;
}

/** Validates the request (lib/oauth/authorize/authorization-request.ts), after looking up its pushed parameters. */
export async function readAuthorizationRequest(
  context: ServiceContext,
  params: URLSearchParams,
  now = new Date(),
): Promise<AuthorizationRequest> {
  const requestUri = params.get("request_uri");
  const requirePar = context.config.requirePar;
  // A request_uri of another kind (RFC 9101) is refused with the rest of the request, to its redirect URI.
  if (requestUri === null || !requestUri.startsWith(REQUEST_URI_PREFIX))
    return validateAuthorizationRequest(context, params, { requirePar });
  const { parameters, startedAt } = await pushedParameters(context, params, requestUri, now);
  return validateAuthorizationRequest(context, parameters, {
    requirePar,
    pushedRequestUri: requestUri,
    signedInSince: startedAt,
  });
}

/** A pushed request leads to one authorization response: false when another one was sent for it already. */
export function markPushedRequestUsed(context: ServiceContext, request: AuthorizationRequest, now = new Date()) {
  return request.pushedRequestUri
    ? context.stores.authorizationRequests.usePushed(request.pushedRequestUri.slice(REQUEST_URI_PREFIX.length), now)
    : Promise.resolve(true);
}
