/**
 * The server span of one request to a route handler, after OpenTelemetry's HTTP conventions: named by method and
 * route ("POST /connect/token"), the child of the span Next.js opened for the request or, under the lean front, of
 * the caller's `traceparent`; it ends with the status, the client, the user, the caller's address and the request
 * id of the log line, and is marked failed on a 5xx. The spans of the database statements the handler runs are its
 * children. Made only while traces are exported: otherwise startRequestSpan returns undefined and makes nothing.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type TextMapGetter } from "@opentelemetry/api";
import type { HeaderReader } from "@/lib/http/protocol-message";
import type { RequestContext } from "@/lib/observability/request-context";
import { activeTracer, recordFailure } from "@/lib/observability/tracing";

export interface RequestSpan {
  readonly traceId: string;
  /** Runs the request's work with this span active. */
  run<T>(work: () => Promise<T>): Promise<T>;
  end(status: number, request: RequestContext, clientAddress: string | undefined): void;
}

const headerGetter: TextMapGetter<HeaderReader> = {
  get: (headers, name) => headers.get(name) ?? undefined,
  // Only the extracting propagators' own header names are read, never a list of all.
  keys: () => [],
};

/** The span of a request to `path` (its first 200 characters; `route` names it), or undefined when tracing is off. */
export function startRequestSpan(
  method: string,
  route: string,
  path: string,
  headers: HeaderReader,
): RequestSpan | undefined {
  const tracer = activeTracer();
  if (!tracer) return undefined;
  const active = context.active();
  const parent = trace.getSpan(active) ? active : propagation.extract(active, headers, headerGetter);
  const span = tracer.startSpan(
    `${method} ${route}`,
    { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "url.path": path.slice(0, 200) } },
    parent,
  );
  const within = trace.setSpan(parent, span);
  return {
    traceId: span.spanContext().traceId,
    async run(work) {
      try {
        return await context.with(within, work);
      } catch (error) {
        recordFailure(span, error);
        span.end();
        throw error;
      }
    },
    end(status, request, clientAddress) {
      if (request.route) span.updateName(`${method} ${request.route}`);
      span.setAttributes({
        "http.route": request.route ?? route,
        "http.response.status_code": status,
        "optigate.request_id": request.requestId,
        ...(request.clientId && { "optigate.client_id": request.clientId }),
        ...(request.userId && { "user.id": request.userId }),
        ...(clientAddress && { "client.address": clientAddress }),
      });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
