/**
 * Settings that are whole numbers within bounds: the shortest password (PASSWORD_MIN_LENGTH) and how long the audit
 * trail is kept (AUDIT_RETENTION_DAYS). A value out of bounds, or no whole number, stops the start with one line.
 */
import { ConfigError } from "@/lib/config/config-error";

type Env = Record<string, string | undefined>;

export function readWholeNumber(
  env: Env,
  name: string,
  bounds: { min: number; max: number; default: number; unit?: string },
): number {
  const raw = env[name]?.trim();
  if (!raw) return bounds.default;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < bounds.min || Number(raw) > bounds.max)
    throw new ConfigError(
      name,
      `must be a whole number${bounds.unit ? ` of ${bounds.unit}` : ""} from ${bounds.min} to ${bounds.max} (got "${raw}")`,
    );
  return Number(raw);
}

// NIST SP 800-63B §3.1.1.2 sets 8 as the floor; above 64 nobody could choose a password within the 256 allowed.
export const readPasswordMinLength = (env: Env): number =>
  readWholeNumber(env, "PASSWORD_MIN_LENGTH", { min: 8, max: 64, default: 12 });

/** Days an audit event is kept before the purge removes it; 400 keeps a year and its audit season. */
export const readAuditRetentionDays = (env: Env): number =>
  readWholeNumber(env, "AUDIT_RETENTION_DAYS", { min: 1, max: 36_500, default: 400, unit: "days" });
