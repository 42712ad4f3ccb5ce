/**
 * The platform API v2 as one web-standard handler for every path under /v2/: finds the route, authenticates the
 * access token (Authorization header only: Bearer, or DPoP with a proof), checks the route's scope (403 insufficient_scope), and leaves the
 * company rule to the data-access layer, which reads the caller's company as it is now. Every error is a problem
 * body (RFC 9457). Browser apps of registered origins may call it (CORS).
 */
import type { ApiCall } from "@/lib/api/api-call";
import type { ApiRoute } from "@/lib/api/api-routes";
import { ApiProblem, insufficientScopeProblem, invalidTokenProblem } from "@/lib/errors/api-problem";
import { apiFailureAnswer, problemAnswer } from "@/lib/http/error-answers";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { AccessDenied, type Actor } from "@/lib/rights/actor";
import { RegistrationError } from "@/lib/rights/registrations";
import { actorOfAccessToken } from "@/lib/rights/token-actor";
import { withCors } from "@/lib/oauth/cors";
import { OAuthError } from "@/lib/errors/oauth-error";
import { readAuthorization, refusalHeaders, resourceRefusal } from "@/lib/oauth/dpop/presented-token";
import type { ServiceContext } from "@/lib/service-context";
import { noteRoute } from "@/lib/observability/request-context";

const MAX_SEGMENT_LENGTH = 200;

/** The path's segments after /v2/, decoded; undefined when the path is not one the API could have. */
function segmentsOf(url: URL): string[] | undefined {
  if (!url.pathname.startsWith("/v2/")) return undefined;
  try {
    const segments = url.pathname.slice(4).split("/").map(decodeURIComponent);
    return segments.every((segment) => segment.length > 0 && segment.length <= MAX_SEGMENT_LENGTH)
      ? segments
      : undefined;
  } catch {
    return undefined;
  }
}

/** The route's path parameters in these segments, or undefined when it does not match. */
function match(route: ApiRoute, segments: string[]): Record<string, string> | undefined {
  const parts = route.path.slice(4).split("/");
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    if (part.startsWith("{")) params[part.slice(1, -1)] = segments[index];
    else if (part !== segments[index]) return undefined;
  }
  return params;
}

function routesAt(routes: readonly ApiRoute[], url: URL): { route: ApiRoute; params: Record<string, string> }[] {
  const segments = segmentsOf(url);
  if (!segments) return [];
  return routes.flatMap((route) => {
    const params = match(route, segments);
    return params ? [{ route, params }] : [];
  });
}

async function authenticate(request: Request, url: URL, context: ServiceContext): Promise<Actor> {
  const header = request.headers.get("authorization");
  const presented = readAuthorization(header);
  if (presented === undefined || presented === "malformed")
    throw invalidTokenProblem(
      header
        ? "The Authorization header must be Bearer or DPoP followed by an access token."
        : "Send an access token issued by OptiGate in the Authorization header (Bearer, or DPoP with a proof).",
    );
  // The proof names the API's public address, whichever address reached this process.
  const publicUrl = `${context.config.apiUrl}${url.pathname}`;
  try {
    return await actorOfAccessToken(context, presented, {
      method: request.method,
      url: publicUrl,
      headers: request.headers,
    });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const refusal = resourceRefusal(error, presented.scheme);
    throw new ApiProblem(
      "invalid-token",
      `The access token is not accepted: ${refusal.description}.`,
      refusalHeaders(refusal),
    );
  }
}

function problemOf(error: unknown): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  if (error instanceof AccessDenied)
    return new ApiProblem(
      "forbidden",
      "This needs the rights of a company: a user's, or one the operator gave this client.",
    );
  if (error instanceof RegistrationError) {
    const type = (
      {
        not_found: "not-found",
        forbidden: "forbidden",
        conflict: "conflict",
        invalid: "unprocessable",
        stale: "precondition-failed",
        precondition_required: "precondition-required",
      } as const
    )[error.code];
    return new ApiProblem(type, error.message);
  }
  if (error instanceof CatalogServiceError) {
    // The catalog rules' 401 (no customer link) is about the company, not the token.
    const type = ({ 400: "bad-request", 401: "forbidden", 403: "forbidden", 404: "not-found" } as const)[error.status];
    return new ApiProblem(type, error.message);
  }
  return undefined;
}

async function dispatch(routes: readonly ApiRoute[], request: Request, context: ServiceContext): Promise<Response> {
  const url = new URL(request.url);
  const candidates = routesAt(routes, url);
  if (candidates.length === 0) throw new ApiProblem("not-found", `There is no API resource at ${url.pathname}.`);
  // HEAD is GET without the body (RFC 9110 §9.3.2); the body is dropped in platformApi.
  const method = request.method === "HEAD" ? "GET" : request.method;
  const found = candidates.find(({ route }) => route.method === method);
  if (!found) {
    const allowed = candidates
      .flatMap(({ route }) => (route.method === "GET" ? ["GET", "HEAD"] : [route.method]))
      .join(", ");
    throw new ApiProblem("method-not-allowed", `${url.pathname} allows ${allowed}.`, { Allow: allowed });
  }
  const { route, params } = found;
  noteRoute(route.path);
  const secured = route.scopes.length > 0;
  const actor: Actor = secured ? await authenticate(request, url, context) : { kind: "anonymous", context };
  if (secured && actor.kind === "token") {
    const needed = route.scopes.map((scope) => `${context.config.apiScopePrefix}.${scope}`);
    if (!needed.some((scope) => actor.scopes.has(scope))) throw insufficientScopeProblem(needed[0]);
  }
  const call: ApiCall = { request, url, params, actor, context };
  return route.handle(call);
}

/** The handler of every /v2/ path and method for these routes, and its CORS preflight. */
export function platformApi(
  getContext: () => ServiceContext,
  routes: readonly ApiRoute[],
): { handle: (request: Request) => Promise<Response>; preflight: (request: Request) => Promise<Response> } {
  const answer = async (request: Request) => {
    try {
      const response = await dispatch(routes, request, getContext());
      if (request.method !== "HEAD") return response;
      await response.body?.cancel();
      return new Response(null, { status: response.status, headers: response.headers });
    } catch (error) {
      const problem = problemOf(error);
      return problem ? problemAnswer(problem) : apiFailureAnswer(error, request.method, new URL(request.url).pathname);
    }
  };
  const methodsAt = (request: Request) => routesAt(routes, new URL(request.url)).map(({ route }) => route.method);
  return withCors(() => getContext().stores.clients, methodsAt, answer, {
    allowHeaders: ["If-Match", "If-None-Match", "If-Modified-Since", "If-Range", "Range", "Accept"],
    exposeHeaders: ["ETag", "Location", "Last-Modified", "Content-Range", "Accept-Ranges", "Content-Encoding"],
  });
}
