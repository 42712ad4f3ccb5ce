/**
 * A caller that goes away while its request body is still arriving ends the request as "aborted" (ECONNRESET). Next.js
 * reports that through console.error as an error with a stack, though no code of the server failed: it becomes one
 * JSON line of the log instead. Every other console.error is left as it is.
 */
import { logger } from "@/lib/observability/logger";

const isClientAbort = (value: unknown): boolean =>
  value instanceof Error && value.message === "aborted" && (value as NodeJS.ErrnoException).code === "ECONNRESET";

export function logClientAbortsQuietly(): void {
  const report = console.error.bind(console);
  console.error = (...values: unknown[]) => {
    if (values.length === 1 && isClientAbort(values[0]))
      logger.info({ reason: "the caller went away before its request body arrived" }, "request aborted");
    else report(...values);
  };
}
