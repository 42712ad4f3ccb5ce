import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { thrown } from "../../helpers/thrown";

const KEY = "k".repeat(40);
const proofOfWork = (env: Record<string, string>) => loadConfig({ SECRET_KEY: KEY, ...env }).proofOfWork;
const failure = (env: Record<string, string>) => thrown(ConfigError, () => loadConfig({ SECRET_KEY: KEY, ...env }));
const DEFAULTS = { failures: { address: 10, account: 3, instance: 100 }, windowSeconds: 900, difficulty: 300_000 };

describe("PROOF_OF_WORK and its thresholds", () => {
  it("are on in production and off for the demo and development, unless set", () => {
    expect(proofOfWork({ NODE_ENV: "production" })).toEqual(DEFAULTS);
    expect(proofOfWork({ NODE_ENV: "production", DEMO_DATA: "1" })).toBeNull();
    expect(proofOfWork({})).toBeNull();
    expect(proofOfWork({ PROOF_OF_WORK: "on" })).toEqual(DEFAULTS);
    expect(proofOfWork({ NODE_ENV: "production", PROOF_OF_WORK: "off" })).toBeNull();
  });

  it("take thresholds, a window and a difficulty; 0 leaves a scope out", () => {
    const env = {
      PROOF_OF_WORK: "on",
      PROOF_OF_WORK_ADDRESS_FAILURES: "0",
      PROOF_OF_WORK_ACCOUNT_FAILURES: "5",
      PROOF_OF_WORK_INSTANCE_FAILURES: "5000",
      PROOF_OF_WORK_WINDOW_MINUTES: "60",
      PROOF_OF_WORK_DIFFICULTY: "200000",
    };
    expect(proofOfWork(env)).toEqual({
      failures: { address: 0, account: 5, instance: 5000 },
      windowSeconds: 3600,
      difficulty: 200_000,
    });
  });

  it("stop the start on a value that means nothing, naming the variable", () => {
    for (const [env, variable] of [
      [{ PROOF_OF_WORK: "yes" }, "PROOF_OF_WORK"],
      [{ PROOF_OF_WORK: "on", PROOF_OF_WORK_ACCOUNT_FAILURES: "-1" }, "PROOF_OF_WORK_ACCOUNT_FAILURES"],
      [{ PROOF_OF_WORK: "on", PROOF_OF_WORK_WINDOW_MINUTES: "0" }, "PROOF_OF_WORK_WINDOW_MINUTES"],
      [{ PROOF_OF_WORK: "on", PROOF_OF_WORK_DIFFICULTY: "10" }, "PROOF_OF_WORK_DIFFICULTY"],
    ] as const)
      expect(failure(env).variable).toBe(variable);
  });
});
