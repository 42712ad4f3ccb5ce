/**
 * How many catalog pulls of the catalog page run at once: one per supplier company, and MAX_CATALOG_PULLS in the
 * process. Each pull may hold a connection and an import for minutes; without a limit, one company (or a few) could
 * keep the server busy fetching. Counted per process, which is what each pull ties up.
 */
import { MAX_CATALOG_PULLS } from "@/lib/config/policy";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { processCache } from "@/lib/observability/process-cache";

/** No pull may start now: the company has one under way, or the process runs as many as it may. */
export class PullBusy extends OptiGateError<"company_busy" | "server_busy"> {
  constructor(
    readonly code: "company_busy" | "server_busy",
    message: string,
  ) {
    super(message);
  }
}

/** The companies whose pull is under way. */
const running = processCache("catalogPulls", () => new Set<string>());

/** Runs the company's pull when it may start now (throws PullBusy otherwise), holding its slot until it ends. */
export async function withPullSlot<T>(companyId: string, pull: () => Promise<T>): Promise<T> {
  if (running.has(companyId)) throw new PullBusy("company_busy", "a pull is already under way for the company");
  if (running.size >= MAX_CATALOG_PULLS)
    throw new PullBusy("server_busy", `${MAX_CATALOG_PULLS} pulls are under way, the most that run at once`);
  running.add(companyId);
  try {
    return await pull();
  } finally {
    running.delete(companyId);
  }
}
