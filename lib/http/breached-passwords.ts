/**
 * Whether a new password is known from a data breach, asked of a Pwned Passwords range API (PASSWORD_BREACH_CHECK=hibp:
 * api.pwnedpasswords.com or the operator's mirror at PASSWORD_BREACH_URL) by k-anonymity: only the first five hex
 * digits of the password's SHA-1 leave OptiGate, and the answer lists the rest of every breached hash that starts with
 * them, padded with decoys (count 0) so that its size tells nothing either. The request is held to the outbound rules
 * (https, public addresses or OUTBOUND_ALLOW) and PASSWORD_BREACH_TIMEOUT_MS; when no whole answer comes, the password
 * is judged by the estimate alone, and the metrics and the log say so.
 */
import { createHash } from "node:crypto";
import type { Config } from "@/lib/config";
import { MAX_PASSWORD_BREACH_ANSWER_BYTES, PASSWORD_BREACH_TIMEOUT_MS } from "@/lib/config/policy";
import type { BreachCheck } from "@/lib/crypto/password-policy";
import { OutboundFetchFailed, outboundFetch } from "@/lib/http/outbound-fetch";
import { logger } from "@/lib/observability/logger";
import { countBreachCheck, type BreachCheckResult } from "@/lib/observability/metrics";

/** What the check needs of the configuration. */
export type BreachCheckSettings = Pick<Config, "passwordBreach" | "production" | "outboundAllow">;

const PREFIX_LENGTH = 5;

/** Whether the range answer lists `suffix` as breached: padding lines have the count 0. */
function listsBreachedSuffix(answer: string, suffix: string): boolean {
  for (const line of answer.split("\n")) {
    const [listed, count] = line.trim().split(":");
    if (listed?.toUpperCase() === suffix && Number(count) > 0) return true;
  }
  return false;
}

type Fetch = ReturnType<typeof outboundFetch>;

const HEADERS = { "add-padding": "true", accept: "text/plain", "user-agent": "OptiGate-Passwords/1" };

/** What the range of the hash's prefix says of the hash, and why it said nothing when it did not answer. */
async function lookUp(fetch: Fetch, base: string, hash: string): Promise<{ result: BreachCheckResult; why?: string }> {
  try {
    const response = await fetch(`${base}/range/${hash.slice(0, PREFIX_LENGTH)}`, { headers: HEADERS });
    if (response.status !== 200) return { result: "unavailable", why: `it answered HTTP ${response.status}` };
    const breached = listsBreachedSuffix(await response.text(), hash.slice(PREFIX_LENGTH));
    return { result: breached ? "breached" : "not_breached" };
  } catch (error) {
    const timedOut = error instanceof OutboundFetchFailed && error.code === "timeout";
    return { result: timedOut ? "timeout" : "unavailable", why: (error as Error).message };
  }
}

/** The check PASSWORD_BREACH_CHECK asks for, or none when it is off. `timeoutMs`: the policy's, unless a test's. */
export function breachedPasswordCheck(
  settings: BreachCheckSettings,
  timeoutMs = PASSWORD_BREACH_TIMEOUT_MS,
): BreachCheck | undefined {
  if (!settings.passwordBreach) return undefined;
  const base = settings.passwordBreach.url;
  const fetch = outboundFetch({
    production: settings.production,
    allowed: settings.outboundAllow,
    timeoutMs,
    maxBytes: MAX_PASSWORD_BREACH_ANSWER_BYTES,
  });
  return async (password) => {
    // The password comes in NFKC, the form it is kept in: for what keyboards type, the form typed.
    const hash = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
    const { result, why } = await lookUp(fetch, base, hash);
    countBreachCheck(result);
    if (why) logger.warn({ reason: why }, "breached-password lookup failed: the estimate alone judged the password");
    return result === "breached";
  };
}
