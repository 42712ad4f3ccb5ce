/**
 * How much an address, an account and the whole instance are under attack: failures (wrong passwords, reset requests,
 * dead invitation links, refused pushes and registrations) counted per window in the throttle store, so that every
 * instance on the database sees the same pressure. Past a scope's threshold, the forms and endpoints that scope
 * reaches ask for a proof of work (lib/proof-of-work/proof-gate.ts).
 */
import type { ProofOfWorkConfig } from "@/lib/config/proof-of-work-config";
import { throttledNetwork } from "@/lib/http/client-address";
import type { ThrottleStore } from "@/lib/store/throttle-store";

/** Who a request comes from and, where it names one, the account it is about (a lower-case email address). */
export interface PressureSource {
  address: string | undefined;
  account?: string;
}

export type PressureScope = keyof ProofOfWorkConfig["failures"];
const EVERY_SCOPE: readonly PressureScope[] = ["address", "account", "instance"];

const INSTANCE_KEY = "pow-instance";

function keysOf({ address, account }: PressureSource): [PressureScope, string][] {
  const keys: [PressureScope, string][] = [["instance", INSTANCE_KEY]];
  if (address) keys.push(["address", `pow-address:${throttledNetwork(address)}`]);
  if (account) keys.push(["account", `pow-account:${account}`]);
  return keys;
}

/** Counts one failure against each scope the source belongs to (none when the proof of work is off). */
export async function recordPressure(
  throttles: ThrottleStore,
  config: ProofOfWorkConfig | null,
  source: PressureSource,
  now = new Date(),
): Promise<void> {
  if (!config) return;
  for (const [scope, key] of keysOf(source))
    if (config.failures[scope] > 0) await throttles.reserve(key, config.windowSeconds, now);
}

/** Whether any of the scopes asked about (all by default) has reached its threshold within the window. */
export async function isUnderPressure(
  throttles: ThrottleStore,
  config: ProofOfWorkConfig | null,
  source: PressureSource,
  { scopes = EVERY_SCOPE, now = new Date() }: { scopes?: readonly PressureScope[]; now?: Date } = {},
): Promise<boolean> {
  if (!config) return false;
  for (const [scope, key] of keysOf(source).filter(([scope]) => scopes.includes(scope))) {
    const threshold = config.failures[scope];
    if (threshold > 0 && (await throttles.count(key, config.windowSeconds, now)) >= threshold) return true;
  }
  return false;
}
