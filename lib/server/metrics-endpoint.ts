/**
 * GET /metrics: the process's Prometheus metrics, for a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`.
 * Without METRICS_TOKEN the path does not exist (404); a wrong or missing token is 401. The database pool's
 * connections and the age of the oldest mail waiting in the outbox are read at each scrape; a database that is down
 * or slow leaves that age NaN and the rest of the metrics are served as ever.
 */
import { METRICS_DATABASE_TIMEOUT_MS } from "@/lib/config/policy";
import { bearerMatches } from "@/lib/http/bearer-matches";
import { logger } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import type { ServiceContext } from "@/lib/service-context";

/** Seconds since the oldest waiting mail was written: 0 when none waits, NaN when the database did not say in time. */
async function oldestWaitingMailAge(context: ServiceContext): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer in time")), METRICS_DATABASE_TIMEOUT_MS);
  });
  try {
    const since = await Promise.race([context.stores.outbox.oldestWaitingSince(), timeout]);
    return since ? Math.max(0, (Date.now() - since.getTime()) / 1000) : 0;
  } catch (error) {
    logger.warn({ err: error }, "metrics: the outbox could not be read");
    return NaN;
  } finally {
    clearTimeout(timer);
  }
}

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
  metrics.mailOldestWaiting.set(await oldestWaitingMailAge(context));
  return new Response(await metrics.registry.metrics(), {
    headers: { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" },
  });
}
