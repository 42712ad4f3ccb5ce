/**
 * LOG_FORMAT: `json` (the default: a JSON object per line, what log collectors read) or `pretty` (a line of text per
 * entry for a terminal, as the demo sets). The logger reads it when it is made (lib/observability/logger.ts), before
 * the configuration; it is checked here so that a misspelt value stops the start instead of quietly giving JSON.
 */
import { ConfigError } from "@/lib/config/config-error";

export function checkLogFormat(env: Record<string, string | undefined>): void {
  const value = env.LOG_FORMAT;
  if (value !== undefined && value !== "" && value !== "json" && value !== "pretty")
    throw new ConfigError("LOG_FORMAT", `must be json or pretty (got "${value}")`);
}
