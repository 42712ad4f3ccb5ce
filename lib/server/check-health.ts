/**
 * The health report behind GET /api/health: is the database reachable, and which migrations has it applied?
 * 200 when reachable (with pending migrations listed), 503 when not. Anyone gets the status; the database type and
 * the migrations only a caller with the metrics token (METRICS_TOKEN), as they tell an attacker what runs here.
 */
import { bearerMatches } from "@/lib/http/bearer-matches";
import { logger } from "@/lib/observability/logger";
import type { DatabaseProvider } from "@/lib/config/database-url";
import type { MigrationState } from "@/lib/store/health-store";
import type { Stores } from "@/lib/store/stores";
import type { ServiceContext } from "@/lib/service-context";

export interface HealthReport {
  status: "ok" | "migrations_pending" | "database_unreachable";
  database: { provider: DatabaseProvider; reachable: boolean };
  migrations?: MigrationState;
}

export async function checkHealth(
  stores: Stores,
  provider: DatabaseProvider,
): Promise<{ httpStatus: number; report: HealthReport }> {
  const health = await stores.maintenance.readHealth();
  if (!health.reachable) {
    logger.error({ reason: health.error.message }, "health: the database is unreachable");
    return { httpStatus: 503, report: { status: "database_unreachable", database: { provider, reachable: false } } };
  }
  const { migrations } = health;
  const status = migrations.pending.length > 0 ? "migrations_pending" : "ok";
  return { httpStatus: 200, report: { status, database: { provider, reachable: true }, migrations } };
}

/** GET /api/health: the report as JSON (the status alone without the metrics token), never cached. */
export async function handleHealthRequest(request: Request, context: ServiceContext): Promise<Response> {
  const { httpStatus, report } = await checkHealth(context.stores, context.config.database.provider);
  const token = context.config.metricsToken;
  const body = token && bearerMatches(request, token) ? report : { status: report.status };
  return Response.json(body, { status: httpStatus, headers: { "Cache-Control": "no-store" } });
}
