/**
 * The platform API v2 as one web-standard handler for every path under /v2/: finds the route, authenticates the
 * access token (Authorization header only: Bearer, or DPoP with a proof), checks the route's scope (403 insufficient_scope), and leaves the
 * company rule to the data-access layer, which reads the caller's company as it is now. Every error is a problem
 * body (RFC 9457). Browser apps of registered origins may call it (CORS).
 */
import type { ApiCall } from "@/lib/api/api-call";
import type { ApiRoute } from "@/lib/api/api-routes";
import { ApiProblem, insufficientScopeProblem } from "@/lib/errors/api-problem";
import { authenticatedCaller } from "@/lib/api/api-authentication";
import { apiFailureAnswer, problemAnswer } from "@/lib/http/error-answers";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import { AccessDenied, type Actor } from "@/lib/rights/actor";
import { RegistrationError } from "@/lib/rights/registrations";
import { actorOfAccessToken } from "@/lib/rights/token-actor";
import { withCors } from "@/lib/oauth/cors";
import type { ServiceContext } from "@/lib/service-context";
import { findRoute, routesAt } from "@/lib/api/route-matching";
import { noteRoute } from "@/lib/observability/request-context";

const API_BASE = "/v2/";

function authenticate(request: Request, url: URL, context: ServiceContext): Promise<Actor> {
  // The proof names the API's public address, whichever address reached this process.
  return authenticatedCaller(request, `${context.config.apiUrl}${url.pathname}`, (presented, target) =>
    actorOfAccessToken(context, presented, target),
  );
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
  const { route, params } = findRoute(routes, API_BASE, request, url);
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
  const methodsAt = (request: Request) =>
    routesAt(routes, API_BASE, new URL(request.url)).map(({ route }) => route.method);
  return withCors(() => getContext().stores.clients, methodsAt, answer, {
    allowHeaders: ["If-Match", "If-None-Match", "If-Modified-Since", "If-Range", "Range", "Accept"],
    exposeHeaders: ["ETag", "Location", "Last-Modified", "Content-Range", "Accept-Ranges", "Content-Encoding"],
  });
}
