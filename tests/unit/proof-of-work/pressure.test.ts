/** Pressure per scope: each scope asks from its own threshold on, within its window, and a threshold of 0 never asks. */
import { describe, expect, it } from "vitest";
import type { ProofOfWorkConfig } from "@/lib/config/proof-of-work-config";
import { isUnderPressure, recordPressure } from "@/lib/proof-of-work/pressure";
import { memoryStores } from "@/lib/store/memory/memory-stores";

const config = (failures: Partial<ProofOfWorkConfig["failures"]>): ProofOfWorkConfig => ({
  failures: { address: 0, account: 0, instance: 0, ...failures },
  windowSeconds: 60,
  difficulty: 1000,
});
const NOW = new Date("2026-11-28T10:00:00Z");
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe("pressure", () => {
  it("puts the whole instance under pressure from its threshold on, whoever failed", async () => {
    const { throttles } = memoryStores();
    const settings = config({ instance: 3 });
    for (const address of ["192.0.2.1", "198.51.100.1"])
      await recordPressure(throttles, settings, { address, account: `${address}@example.com` }, NOW);
    expect(await isUnderPressure(throttles, settings, { address: "203.0.113.9" }, { now: at(1) })).toBe(false);
    await recordPressure(throttles, settings, { address: "192.0.2.77" }, at(2));
    expect(await isUnderPressure(throttles, settings, { address: "203.0.113.9" }, { now: at(3) })).toBe(true);
    expect(await isUnderPressure(throttles, settings, { address: undefined }, { now: at(3) })).toBe(true);
    // The window ends, and with it the pressure.
    expect(await isUnderPressure(throttles, settings, { address: "203.0.113.9" }, { now: at(61) })).toBe(false);
  });

  it("counts an address by its network and an account by its address, each against its own threshold", async () => {
    const { throttles } = memoryStores();
    const settings = config({ address: 2, account: 2 });
    await recordPressure(throttles, settings, { address: "2001:db8:1:2::1", account: "a@example.com" }, NOW);
    await recordPressure(throttles, settings, { address: "2001:db8:1:2::99", account: "b@example.com" }, NOW);
    expect(await isUnderPressure(throttles, settings, { address: "2001:db8:1:2::5" }, { now: NOW })).toBe(true);
    expect(
      await isUnderPressure(throttles, settings, { address: "2001:db8:9::1", account: "a@example.com" }, { now: NOW }),
    ).toBe(false);
    await recordPressure(throttles, settings, { address: "192.0.2.1", account: "a@example.com" }, NOW);
    expect(
      await isUnderPressure(throttles, settings, { address: "2001:db8:9::1", account: "a@example.com" }, { now: NOW }),
    ).toBe(true);
  });

  it("asks about the scopes named only: an API client's network, whatever the instance's pressure", async () => {
    const { throttles } = memoryStores();
    const settings = config({ address: 2, instance: 2 });
    for (const address of ["192.0.2.1", "198.51.100.1"]) await recordPressure(throttles, settings, { address }, NOW);
    const network = { address: "203.0.113.9" };
    expect(await isUnderPressure(throttles, settings, network, { now: NOW })).toBe(true);
    expect(await isUnderPressure(throttles, settings, network, { scopes: ["address"], now: NOW })).toBe(false);
    await recordPressure(throttles, settings, network, NOW);
    await recordPressure(throttles, settings, network, NOW);
    expect(await isUnderPressure(throttles, settings, network, { scopes: ["address"], now: NOW })).toBe(true);
  });

  it("never asks in a scope whose threshold is 0, nor at all when the proof of work is off", async () => {
    const { throttles } = memoryStores();
    const settings = config({ account: 1 });
    for (let index = 0; index < 5; index++) await recordPressure(throttles, settings, { address: "192.0.2.1" }, NOW);
    expect(await isUnderPressure(throttles, settings, { address: "192.0.2.1" }, { now: NOW })).toBe(false);
    await recordPressure(throttles, null, { address: "192.0.2.1", account: "a@example.com" }, NOW);
    expect(
      await isUnderPressure(throttles, settings, { address: "192.0.2.1", account: "a@example.com" }, { now: NOW }),
    ).toBe(false);
    await recordPressure(throttles, settings, { address: "192.0.2.1", account: "a@example.com" }, NOW);
    expect(
      await isUnderPressure(throttles, null, { address: "192.0.2.1", account: "a@example.com" }, { now: NOW }),
    ).toBe(false);
  });
});
