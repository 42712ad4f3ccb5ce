/**
 * Whether this process is shutting down. From the first SIGTERM on, /api/health/ready answers 503 so that a load
 * balancer stops sending new requests while those in flight finish (scripts/serve.ts).
 */
import { processCache } from "@/lib/observability/process-cache";

const shutdown = processCache("draining", () => ({ draining: false }));

export const isDraining = (): boolean => shutdown.draining;

export function startDraining(): void {
  shutdown.draining = true;
}
