/** Password hashes run one per core the process may use; the others wait, first come first served. */
import { describe, expect, it } from "vitest";
import { HASHING_SLOTS, inHashingSlot } from "@/lib/crypto/hashing-slots";

describe("hashing slots", () => {
  it("run as many hashes at once as there are cores, the next in line starting as one ends", async () => {
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    const works = Array.from({ length: HASHING_SLOTS + 2 }, (_, index) =>
      inHashingSlot(async () => {
        started.push(index);
        await new Promise<void>((resolve) => (finish[index] = resolve));
        return index;
      }),
    );
    await settle();
    expect(started).toEqual(Array.from({ length: HASHING_SLOTS }, (_, index) => index));
    finish[0]();
    await settle();
    expect(started).toHaveLength(HASHING_SLOTS + 1);
    expect(started.at(-1)).toBe(HASHING_SLOTS);
    for (let index = 1; index < HASHING_SLOTS + 2; index++) {
      await settle();
      finish[index]();
    }
    expect(await Promise.all(works)).toEqual(Array.from({ length: HASHING_SLOTS + 2 }, (_, index) => index));
  });

  it("give the slot back when a hash fails", async () => {
    await expect(inHashingSlot(() => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    const all = Array.from({ length: HASHING_SLOTS + 1 }, (_, index) => inHashingSlot(async () => index));
    expect(await Promise.all(all)).toHaveLength(HASHING_SLOTS + 1);
  });
});
