/**
 * The management API as one handler for every path under /manage/v1/: finds the route, authenticates the client's
 * access token (lib/rights/management-client.ts), checks the route's scopes (the operator's, or a company scope for
 * routes a company's own client may call, whose company the route's rights check then holds it to), and runs the
 * handler as that client, so that the audit trail names it. Every error is a problem body (RFC 9457).
 */
import { authenticatedCaller } from "@/lib/api/api-authentication";
import { MANAGE_BASE, type ManageRoute } from "@/lib/api/manage/manage-call";
import { manageProblemOf } from "@/lib/api/manage/manage-problems";
import { findRoute } from "@/lib/api/route-matching";
import { insufficientScopeProblem } from "@/lib/errors/api-problem";
import { apiFailureAnswer, problemAnswer } from "@/lib/http/error-answers";
import { noteRoute } from "@/lib/observability/request-context";
import type { ManagementClient } from "@/lib/rights/actor";
import { managementClientOfToken } from "@/lib/rights/management-client";
import type { ServiceContext } from "@/lib/service-context";
import { actingAsClient } from "@/lib/store/audit-attribution";
import { managementApiResource } from "@/lib/oauth/resource-indicators";

function authenticate(request: Request, url: URL, context: ServiceContext): Promise<ManagementClient> {
  const publicUrl = `${managementApiResource(context.config)}/${url.pathname.slice(MANAGE_BASE.length)}`;
  return authenticatedCaller(request, publicUrl, (presented, target) =>
    managementClientOfToken(context, presented, target),
  );
}

/** Any one of the route's operator scopes, or (a company's client) of its company scopes. */
function checkScopes(route: Extract<ManageRoute, { handle: unknown }>, client: ManagementClient): void {
  const offered = client.company ? (route.companyScopes ?? []) : route.scopes;
  if (offered.some((scope) => client.scopes.has(scope))) return;
  throw insufficientScopeProblem(offered[0] ?? route.scopes[0]);
}

async function dispatch(routes: readonly ManageRoute[], request: Request, context: ServiceContext): Promise<Response> {
  const url = new URL(request.url);
  const { route, params } = findRoute(routes, MANAGE_BASE, request, url);
  noteRoute(route.path);
  if ("serve" in route) return route.serve({ request, url, params, context });
  const actor = await authenticate(request, url, context);
  checkScopes(route, actor);
  return actingAsClient(actor.clientId, () => route.handle({ request, url, params, actor, context }));
}

/** The answer to any request under /manage/v1/: HEAD is GET without the body. */
export async function answerManageRequest(
  routes: readonly ManageRoute[],
  request: Request,
  context: ServiceContext,
): Promise<Response> {
  try {
    const response = await dispatch(routes, request, context);
    if (request.method !== "HEAD") return response;
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  } catch (error) {
    const problem = manageProblemOf(error);
    return problem ? problemAnswer(problem) : apiFailureAnswer(error, request.method, new URL(request.url).pathname);
  }
}
