/**
 * GET /metrics: the process's Prometheus metrics, for a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`.
 * Without METRICS_TOKEN the path does not exist (404); a wrong or missing token is 401. The database pool's
 * connections are read at each scrape.
 */
import { bearerMatches } from "@/lib/http/bearer-matches";
import { metrics } from "@/lib/observability/metrics";
import type { ServiceContext } from "@/lib/service-context";

export async function handleMetricsRequest(request: Request, context: ServiceContext): Promise<Response> {
  const token = context.config.metricsToken;
  if (!token)
    return new Response("Not found.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!bearerMatches(request, token)) {
    return new Response("A bearer token is required.\n", {
      status: 401,
      headers: { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="OptiGate metrics"' },
    });
  }
  const pool = context.stores.maintenance.poolConnections();
  if (pool) {
    metrics.poolConnections.set({ state: "total" }, pool.total);
    metrics.poolConnections.set({ state: "idle" }, pool.idle);
    metrics.poolConnections.set({ state: "waiting" }, pool.waiting);
  }
  return new Response(await metrics.registry.metrics(), {
    headers: { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" },
  });
}
