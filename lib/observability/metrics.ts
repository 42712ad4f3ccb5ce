/**
 * Prometheus metrics of the process (prom-client), shared by the Next.js bundle and the lean front: requests by
 * endpoint and latency, token requests by grant and result, protocol error codes, catalog bytes streamed, and the
 * database pool's connections. Served at /metrics only when METRICS_TOKEN is set (metrics-endpoint.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processCache } from "@/lib/observability/process-cache";

/** Grant types as labels: the known ones, anything else "other", so no caller can grow the label set. */
const GRANTS = new Set([
  "authorization_code",
  "refresh_token",
  "client_credentials",
  "urn:ietf:params:oauth:grant-type:jwt-bearer",
  "urn:ietf:params:oauth:grant-type:token-exchange",
]);

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "optigate_" });
  return {
    registry,
    requests: new Histogram({
      name: "optigate_http_request_duration_seconds",
      help: "Time to the response headers, by endpoint, method and status class",
      labelNames: ["endpoint", "method", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    tokenRequests: new Counter({
      name: "optigate_token_requests_total",
      help: "Token requests by grant type and result (issued, or the error code)",
      labelNames: ["grant", "result"],
      registers: [registry],
    }),
    protocolErrors: new Counter({
      name: "optigate_protocol_errors_total",
      help: "OAuth error responses by error code",
      labelNames: ["error"],
      registers: [registry],
    }),
    catalogBytes: new Counter({
      name: "optigate_catalog_bytes_streamed_total",
      help: "Bytes of sub-catalog documents streamed",
      registers: [registry],
    }),
    catalogArticlePages: new Counter({
      name: "optigate_catalog_article_pages_read_total",
      help: "Pages of catalog articles read from the database (one statement each)",
      registers: [registry],
    }),
    poolConnections: new Gauge({
      name: "optigate_db_pool_connections",
      help: "PostgreSQL pool connections by state (total, idle, waiting)",
      labelNames: ["state"],
      registers: [registry],
    }),
  };
}

export const metrics = processCache("metrics", create);

export const grantLabel = (grant: string | undefined) =>
  grant === undefined ? "none" : GRANTS.has(grant) ? grant : "other";
