/**
 * The process's structured log: one JSON object per line on stdout (pino), shared by the Next.js bundle and the lean
 * front. Request lines carry no query strings, bodies or headers, so no password, secret, code, token or ticket
 * reaches the log; errors keep their stack here and only here. LOG_LEVEL (default info) sets what is written.
 */
import pino, { type Logger } from "pino";
import { processCache } from "@/lib/cache/process-cache";

export const logger: Logger = processCache("logger", () =>
  pino({ level: process.env.LOG_LEVEL ?? "info", base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }),
);
