/**
 * What a request's log line and metrics need to know from deep inside its handling (the authenticated client, the
 * grant asked for), kept per request with AsyncLocalStorage.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processCache } from "@/lib/observability/process-cache";

export interface RequestContext {
  requestId: string;
  /** The route, as a metrics label: the path, or /v2 for every API path. */
  endpoint: string;
  clientId?: string;
  grantType?: string;
}

const storage = processCache("requestContext", () => new AsyncLocalStorage<RequestContext>());

export function runInRequestContext<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
  return storage.run(context, work);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** Records the authenticated client for the request's log line. */
export function noteClient(clientId: string): void {
  const context = storage.getStore();
  if (context) context.clientId = clientId;
}
