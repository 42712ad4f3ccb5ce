/**
 * Starts OpenTelemetry's Node SDK, for traces only, once per process. instrumentation.ts imports this module only
 * when an OTLP endpoint is configured (tracingWanted), so a process without one never loads the SDK. The SDK reads
 * the standard OTEL_* variables: the endpoint, OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by default, http/json,
 * grpc), OTEL_EXPORTER_OTLP_HEADERS, the sampler, the batch sizes, OTEL_SERVICE_NAME (default "optigate"). Metrics
 * stay with /metrics and logs with stdout: neither is exported. Prisma's queries become spans through
 * @prisma/instrumentation; requests and OptiGate's own statements through lib/observability/tracing.ts, which also
 * stops it (stopTracing).
 */
import { context, diag, DiagLogLevel, propagation, trace, type DiagLogFunction } from "@opentelemetry/api";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import { logger } from "@/lib/observability/logger";
import { activeTracer, enableTracing } from "@/lib/observability/tracing";

/**
 * The SDK's own warnings (an export that failed, a setting it cannot read) as log lines, unless OTEL_LOG_LEVEL asks
 * for its console logger instead.
 */
function logSdkWarnings(): void {
  if (process.env.OTEL_LOG_LEVEL) return;
  const ignore: DiagLogFunction = () => undefined;
  const to =
    (level: "warn" | "error"): DiagLogFunction =>
    (message) =>
      logger[level]({ source: "opentelemetry" }, message);
  diag.setLogger(
    { error: to("error"), warn: to("warn"), info: ignore, debug: ignore, verbose: ignore },
    DiagLogLevel.WARN,
  );
}

export function startTracing(): void {
  if (activeTracer()) return;
  logSdkWarnings();
  const prisma = new PrismaInstrumentation();
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || "optigate",
    instrumentations: [prisma],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  enableTracing(async () => {
    prisma.disable();
    await sdk.shutdown();
    // The API's globals are free again for a later start (tests start and stop it in one process).
    trace.disable();
    context.disable();
    propagation.disable();
    diag.disable();
  });
  logger.info({ protocol: process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf" }, "exporting traces");
}
