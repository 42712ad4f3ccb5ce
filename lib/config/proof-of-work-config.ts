/**
 * When sign-in forms and public-client endpoints ask for a proof of work (lib/proof-of-work/): PROOF_OF_WORK `on`
 * (the default in production) or `off` (the default for the demo and development), the failures per window after
 * which an address, an account or the whole instance is under attack, and how much work a challenge asks.
 */
import { ConfigError } from "@/lib/config/config-error";
import { LONGEST_PROOF_OF_WORK_WINDOW_SECONDS } from "@/lib/config/policy";
import { readWholeNumber } from "@/lib/config/whole-number-settings";

type Env = Record<string, string | undefined>;

const WINDOW_MINUTES = { min: 1, max: LONGEST_PROOF_OF_WORK_WINDOW_SECONDS / 60, default: 15, unit: "minutes" };

export interface ProofOfWorkConfig {
  /** Failures within the window after which a proof is asked; 0: that scope never asks. */
  failures: { address: number; account: number; instance: number };
  windowSeconds: number;
  /** The largest counter a challenge hides: a browser hashes half as many times on average. */
  difficulty: number;
}

const failures = (env: Env, name: string, fallback: number) =>
  readWholeNumber(env, name, { min: 0, max: 999_999, default: fallback, unit: "failures" });

/** The thresholds and work, or null when no proof is ever asked. */
export function readProofOfWorkConfig(env: Env, production: boolean): ProofOfWorkConfig | null {
  const setting = env.PROOF_OF_WORK?.trim() || (production ? "on" : "off");
  if (setting !== "on" && setting !== "off")
    throw new ConfigError("PROOF_OF_WORK", `must be on or off (got "${setting}")`);
  if (setting === "off") return null;
  return {
    failures: {
      address: failures(env, "PROOF_OF_WORK_ADDRESS_FAILURES", 10),
      account: failures(env, "PROOF_OF_WORK_ACCOUNT_FAILURES", 3),
      instance: failures(env, "PROOF_OF_WORK_INSTANCE_FAILURES", 100),
    },
    windowSeconds: 60 * readWholeNumber(env, "PROOF_OF_WORK_WINDOW_MINUTES", WINDOW_MINUTES),
    difficulty: readWholeNumber(env, "PROOF_OF_WORK_DIFFICULTY", { min: 1000, max: 999_999, default: 300_000 }),
  };
}
