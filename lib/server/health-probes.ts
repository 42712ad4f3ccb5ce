/**
 * The probes of an orchestrator. GET /api/health/live: the process answers (no database), so a database outage
 * restarts no container. GET /api/health/ready: this process can serve now: not shutting down, the database answers
 * with every migration applied, and the signing keys are there and open with SECRET_KEY; 503 otherwise, with the
 * reason. Anyone may call them, so readiness only reads, and one answer serves every probe for READINESS_CACHE_MS.
 */
import { isDraining } from "@/lib/server/draining";
import { logger } from "@/lib/observability/logger";
import { processCache } from "@/lib/observability/process-cache";
import type { ServiceContext } from "@/lib/service-context";

type Readiness =
  "ready" | "draining" | "database_unreachable" | "migrations_pending" | "keys_missing" | "keys_unavailable";

const READINESS_CACHE_MS = 2_000;
const NO_STORE = { "Cache-Control": "no-store" };

const probeAnswer = (status: Readiness | "live") =>
  Response.json({ status }, { status: status === "ready" || status === "live" ? 200 : 503, headers: NO_STORE });

export async function handleLiveRequest(): Promise<Response> {
  return probeAnswer("live");
}

async function readiness({ config, stores }: ServiceContext): Promise<Readiness> {
  const health = await stores.maintenance.readHealth();
  if (!health.reachable) return "database_unreachable";
  if (health.migrations.pending.length > 0) return "migrations_pending";
  let keys;
  try {
    keys = await stores.signingKeys.keySet(config.secretKey);
  } catch (error) {
    logger.error({ err: error }, "readiness: the signing keys do not open with SECRET_KEY");
    return "keys_unavailable";
  }
  // Made by `npm run migrate` and the start script; a probe never writes.
  const algorithms = new Set([config.tokenSigningAlg, config.idTokenSigningAlg]);
  return [...algorithms].every((alg) => keys.active.has(alg)) ? "ready" : "keys_missing";
}

/** The last answer for a database, or the check under way: probes arriving meanwhile share it. */
const recent = processCache("readiness", () => new WeakMap<object, { at: number; answer: Promise<Readiness> }>());

function sharedReadiness(context: ServiceContext): Promise<Readiness> {
  const now = Date.now();
  const last = recent.get(context.stores);
  if (last && now - last.at <= READINESS_CACHE_MS) return last.answer;
  const answer = readiness(context);
  recent.set(context.stores, { at: now, answer });
  return answer;
}

export async function handleReadyRequest(_request: Request, context: ServiceContext): Promise<Response> {
  return probeAnswer(isDraining() ? "draining" : await sharedReadiness(context));
}
