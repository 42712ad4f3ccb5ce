/**
 * Finding the route of an API request (the platform API under /v2/, the management API under /manage/v1/): the path's
 * segments against each route's template, then the method, with the 404 and 405 problems of both APIs.
 */
import { ApiProblem } from "@/lib/errors/api-problem";

const MAX_SEGMENT_LENGTH = 200;

/** What the matching needs of a route: its method and its path template (`/v2/catalogs/{supplierId}`). */
export interface RouteTemplate {
  method: string;
  path: string;
}

/** The path's segments after `base`, decoded; undefined when the path is not one the API could have. */
function segmentsOf(url: URL, base: string): string[] | undefined {
  if (!url.pathname.startsWith(base)) return undefined;
  try {
    const segments = url.pathname.slice(base.length).split("/").map(decodeURIComponent);
    return segments.every((segment) => segment.length > 0 && segment.length <= MAX_SEGMENT_LENGTH)
      ? segments
      : undefined;
  } catch {
    return undefined;
  }
}

/** The route's path parameters in these segments, or undefined when it does not match. */
function match(route: RouteTemplate, base: string, segments: string[]): Record<string, string> | undefined {
  const parts = route.path.slice(base.length).split("/");
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    if (part.startsWith("{")) params[part.slice(1, -1)] = segments[index];
    else if (part !== segments[index]) return undefined;
  }
  return params;
}

/** The routes whose template matches the request's path, whatever their method. */
export function routesAt<Route extends RouteTemplate>(
  routes: readonly Route[],
  base: string,
  url: URL,
): { route: Route; params: Record<string, string> }[] {
  const segments = segmentsOf(url, base);
  if (!segments) return [];
  return routes.flatMap((route) => {
    const params = match(route, base, segments);
    return params ? [{ route, params }] : [];
  });
}

/** The route of the request's path and method; a 404 or 405 problem (with Allow) when there is none. */
export function findRoute<Route extends RouteTemplate>(
  routes: readonly Route[],
  base: string,
  request: Request,
  url: URL,
): { route: Route; params: Record<string, string> } {
  const candidates = routesAt(routes, base, url);
  if (candidates.length === 0) throw new ApiProblem("not-found", `There is no API resource at ${url.pathname}.`);
  // HEAD is GET without the body (RFC 9110 §9.3.2); the router drops the body.
  const method = request.method === "HEAD" ? "GET" : request.method;
  const found = candidates.find(({ route }) => route.method === method);
  if (found) return found;
  const allowed = candidates
    .flatMap(({ route }) => (route.method === "GET" ? ["GET", "HEAD"] : [route.method]))
    .join(", ");
  throw new ApiProblem("method-not-allowed", `${url.pathname} allows ${allowed}.`, { Allow: allowed });
}
