/**
 * What the management API's routes are made of: the route (method, path under /manage/v1/, the operator's scopes and
 * the company scopes that also reach it, handler, OpenAPI operation), the call a handler gets, and the helpers every
 * resource shares (ETags of a representation, If-Match, pages of a list with a signed cursor).
 */
import { createHash } from "node:crypto";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { queryParameters, wholeNumberParameter } from "@/lib/api/request-input";
import { ApiProblem } from "@/lib/errors/api-problem";
import { matchesEntityTag } from "@/lib/http/entity-tags";
import type { ManagementClient } from "@/lib/rights/actor";
import type { ServiceContext } from "@/lib/service-context";

export const MANAGE_BASE = "/manage/v1/";

export interface ManageCall {
  request: Request;
  url: URL;
  params: Record<string, string>;
  actor: ManagementClient;
  context: ServiceContext;
}

type ManageHandler = (call: ManageCall) => Promise<Response>;

interface RouteBase {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** From /manage/v1/ on; `{name}` is a path parameter. */
  path: string;
  /** The OpenAPI operation, without `security`, which the document derives from the scopes. */
  operation: Record<string, unknown>;
}

interface SecuredRoute extends RouteBase {
  /** The operator's scopes, any one of which suffices (`manage.companies.read`). */
  scopes: readonly string[];
  /** The company scopes that reach the route too, for the client's own company only (the handler's rights check). */
  companyScopes?: readonly string[];
  handle: ManageHandler;
}

/** A route that needs no token (the OpenAPI document): it gets no actor. */
interface PublicRoute extends RouteBase {
  scopes: readonly [];
  serve: (call: Omit<ManageCall, "actor">) => Promise<Response>;
}

export type ManageRoute = SecuredRoute | PublicRoute;

/** A strong ETag of a JSON representation: it changes whenever anything the API shows of the resource changes. */
export const representationEtag = (representation: unknown): string =>
  `"${createHash("sha256").update(JSON.stringify(representation)).digest("base64url").slice(0, 27)}"`;

/**
 * A change needs If-Match naming the resource as it is now: 428 without the header, 412 when it names another
 * version (`*` matches any).
 */
export function requireCurrent(call: ManageCall, current: unknown, what: string): void {
  const header = call.request.headers.get("if-match");
  if (header === null)
    throw new ApiProblem("precondition-required", `Send If-Match with the ETag of the ${what} as you read it.`);
  if (!matchesEntityTag(header, representationEtag(current), "strong"))
    throw new ApiProblem("precondition-failed", `If-Match names no current version of the ${what}; read it again.`);
}

/** A JSON answer with the representation's ETag. */
export const representationResponse = (representation: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(representation), {
    status,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      ETag: representationEtag(representation),
      ...headers,
    },
  });

/** One page of a list in a stable order: `limit` (1…max) items after the cursor's position, and the next cursor. */
export interface PageRequest {
  limit: number;
  /** The key of the last item of the previous page; undefined on the first. */
  after?: string;
}

/**
 * Reads a list's query: the filters the route takes besides `limit` and `cursor`, and the page. `list` names the list
 * and its filters, so that a cursor is refused with other filters.
 */
export function pageQuery(
  call: ManageCall,
  list: string,
  filters: readonly string[],
  limits: { max: number; default: number },
): { filters: Map<string, string>; page: PageRequest; cursorList: string } {
  const query = queryParameters(call.url, [...filters, "limit", "cursor"]);
  const chosen = new Map([...query].filter(([name]) => filters.includes(name)));
  const cursorList = `${list}?${new URLSearchParams([...chosen].sort()).toString()}`;
  const limit = wholeNumberParameter("limit", query.get("limit"), { min: 1, max: limits.max, default: limits.default });
  const cursor = query.get("cursor");
  const after = cursor === undefined ? undefined : decodeCursor(call.context.config.secretKey, cursorList, cursor);
  if (after !== undefined && typeof after !== "string")
    throw new ApiProblem("bad-request", "The cursor is not one this API handed out; start again without it.");
  return { filters: chosen, page: { limit: limit!, after }, cursorList };
}

/**
 * The answer of a page: the items and the cursor of the next page, when the store found more than `limit` (stores
 * read limit + 1 items). `keyOf` is an item's position in the list's stable order.
 */
export function pageResponse<Item>(
  call: ManageCall,
  cursorList: string,
  page: PageRequest,
  found: readonly Item[],
  keyOf: (item: Item) => string,
  shown: (item: Item) => unknown,
): Response {
  const items = found.slice(0, page.limit);
  const more = found.length > page.limit;
  const next = more ? encodeCursor(call.context.config.secretKey, cursorList, keyOf(items[items.length - 1])) : null;
  return new Response(JSON.stringify({ items: items.map(shown), next }), {
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
