/**
 * Whether new passwords are looked up among breached ones: PASSWORD_BREACH_CHECK `off` (the default) or `hibp`, which
 * asks a Pwned Passwords range API at PASSWORD_BREACH_URL (api.pwnedpasswords.com, or a mirror the operator runs) by
 * k-anonymity: only the first five hex digits of a password's SHA-1 leave OptiGate.
 */
import { ConfigError } from "@/lib/config/config-error";

type Env = Record<string, string | undefined>;

export const PWNED_PASSWORDS_URL = "https://api.pwnedpasswords.com";

export interface PasswordBreachConfig {
  /** The range API's base URL, without a trailing slash: `${url}/range/<first 5 hex digits>` is asked. */
  url: string;
}

/** An absolute http(s) URL without credentials, query or fragment; https in production. */
function readRangeApiUrl(raw: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("PASSWORD_BREACH_URL", `must be an absolute https URL (got "${raw}")`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && !production))
    throw new ConfigError("PASSWORD_BREACH_URL", `must use https (got "${raw}")`);
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError("PASSWORD_BREACH_URL", `must not contain credentials, a query or a fragment (got "${raw}")`);
  return raw.replace(/\/+$/, "");
}

/** The range API to ask, or null when the check is off. */
export function readPasswordBreachConfig(env: Env, production: boolean): PasswordBreachConfig | null {
  const check = env.PASSWORD_BREACH_CHECK?.trim() || "off";
  const url = env.PASSWORD_BREACH_URL?.trim();
  if (check !== "off" && check !== "hibp")
    throw new ConfigError("PASSWORD_BREACH_CHECK", `must be off or hibp (got "${check}")`);
  if (check === "off") {
    if (url) throw new ConfigError("PASSWORD_BREACH_URL", "applies only with PASSWORD_BREACH_CHECK=hibp");
    return null;
  }
  return { url: url ? readRangeApiUrl(url, production) : PWNED_PASSWORDS_URL };
}
