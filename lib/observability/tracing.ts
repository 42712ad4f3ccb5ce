/**
 * OpenTelemetry traces as OptiGate's code sees them: whether this process exports traces (instrumentation.ts starts
 * the SDK, lib/observability/start-tracing.ts, only when an OTLP endpoint is configured), the tracer of OptiGate's
 * own spans, and the span of one database statement. Callers check `activeTracer()` before they build anything for
 * a span, so that with tracing off a traced call costs one property read and no objects.
 */
import { SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { processCache } from "@/lib/observability/process-cache";

// Shared by the Next.js bundle and the lean front, which load this module separately.
const state = processCache("tracing", (): { tracer?: Tracer; stop?: () => Promise<void> } => ({}));

/** Whether this process should export traces: an OTLP endpoint is set and the SDK is not switched off. */
export function tracingWanted(env: Record<string, string | undefined> = process.env): boolean {
  return (
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
    env.OTEL_SDK_DISABLED?.toLowerCase() !== "true"
  );
}

/** The tracer of OptiGate's spans while this process exports traces; undefined when it does not. */
export const activeTracer = (): Tracer | undefined => state.tracer;

/** Traces are exported from now on (the SDK registered its tracer provider); `stop` ends that. */
export function enableTracing(stop: () => Promise<void>): void {
  state.tracer = trace.getTracer("optigate");
  state.stop = stop;
}

/**
 * Sends the spans still buffered and stops exporting: for a process about to exit (spans wait up to 5 s in their
 * batch), and for tests. Nothing to do, and no SDK loaded, when tracing is off.
 */
export async function stopTracing(): Promise<void> {
  const stop = state.stop;
  state.tracer = state.stop = undefined;
  await stop?.();
}

/** Marks a span as failed by an exception. */
export function recordFailure(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * `run` in a span named after its statement, a child of the active span (the request's). Only call it when
 * `activeTracer()` gave a tracer. The span lasts until the statement's result arrives, so for a grouped statement
 * it includes the wait for the group's commit: the time the request spent on it.
 */
export function traceStatement<T>(name: string, system: "sqlite" | "postgresql", run: () => Promise<T>): Promise<T> {
  return state.tracer!.startActiveSpan(
    name,
    { kind: SpanKind.CLIENT, attributes: { "db.system.name": system } },
    async (span) => {
      try {
        return await run();
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
