/**
 * The process's structured log: one JSON object per line on stdout (pino), shared by the Next.js bundle and the lean
 * front, written asynchronously. Request lines carry no query strings, bodies or headers, so no password, secret, code, token or ticket
 * reaches the log; errors keep their stack here and only here. LOG_LEVEL (default info) sets what is written;
 * LOG_FORMAT=pretty (the demo sets it) writes a line of text per entry instead (lib/observability/pretty-log.ts).
 */
import pino, { type Logger } from "pino";
import { prettyStream } from "@/lib/observability/pretty-log";
import { processCache } from "@/lib/observability/process-cache";

export const logger: Logger = processCache("logger", () =>
  pino(
    {
      level: process.env.LOG_LEVEL ?? "info",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // JSON is written off the request's path: lines that arrive while a write is under way go out together, and what
    // is left is written when the process exits. Synchronous writes cost the token endpoint a system call per request.
    process.env.LOG_FORMAT === "pretty" ? prettyStream : pino.destination({ dest: 1, sync: false }),
  ),
);
