/**
 * Runs once when a server process starts (`npm start`, `next start`): OpenTelemetry traces begin when an OTLP
 * endpoint is configured, the outbox worker begins delivering mail and webhooks, and a caller's abort is logged as such.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  (await import("@/lib/observability/client-aborts")).logClientAbortsQuietly();
  const { tracingWanted } = await import("@/lib/observability/tracing");
  // Without an endpoint the SDK is not even loaded: no memory and no start-up time for it.
  if (tracingWanted()) (await import("@/lib/observability/start-tracing")).startTracing();
  const { getServiceContext } = await import("@/lib/service-context");
  const { startMailDelivery } = await import("@/lib/mail/mail-delivery");
  const { mailComposers, outboxTransports } = await import("@/lib/server/mail-composers");
  const context = getServiceContext();
  startMailDelivery(context.config, context.stores.outbox, mailComposers(context), outboxTransports(context));
}
