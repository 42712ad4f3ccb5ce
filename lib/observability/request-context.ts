/**
 * What a request's log line, metrics and trace need to know from deep inside its handling (the client, the user, the
 * grant asked for, the API route), kept per request with AsyncLocalStorage.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processCache } from "@/lib/observability/process-cache";

export interface RequestContext {
  requestId: string;
  /** The route, as a metrics label: the path, or /v2 for every API path. */
  endpoint: string;
  clientId?: string;
  /** The user a session or an access token identified (an id, never an address). */
  userId?: string;
  grantType?: string;
  /** The route's template where the path holds values (a platform API route), for the trace's span name. */
  route?: string;
}

const storage = processCache("requestContext", () => new AsyncLocalStorage<RequestContext>());

export function runInRequestContext<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
  return storage.run(context, work);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

function note(fact: "clientId" | "userId" | "route", value: string): void {
  const context = storage.getStore();
  if (context) context[fact] = value;
}

/** Records the client (authenticated, or named by an authorization request or an access token). */
export const noteClient = (clientId: string): void => note("clientId", clientId);

/** Records the user a session or access token identified. */
export const noteUser = (userId: string): void => note("userId", userId);

/** Records the route template that matched the path (`/v2/catalogs/{supplierId}/{catalogId}`). */
export const noteRoute = (route: string): void => note("route", route);
