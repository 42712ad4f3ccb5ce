/**
 * Catalog pulls at once: one per supplier company and MAX_CATALOG_PULLS in the process, each slot held until its pull
 * has ended, also when it fails.
 */
import { describe, expect, it } from "vitest";
import { PullBusy, withPullSlot } from "@/lib/catalog/publishing/pull-slots";
import { MAX_CATALOG_PULLS } from "@/lib/config/policy";

/** A pull of the company that runs until the test ends it. */
function runningPull(companyId: string) {
  let end!: (value: string) => void;
  let fail!: (error: Error) => void;
  const pull = withPullSlot(
    companyId,
    () =>
      new Promise<string>((resolve, reject) => {
        end = resolve;
        fail = reject;
      }),
  );
  return { pull, end, fail };
}

/** What a quick pull of the company comes to: "ran", or why it was refused. */
const tryPull = (companyId: string) =>
  withPullSlot(companyId, async () => "ran").catch((error: unknown) => {
    expect(error).toBeInstanceOf(PullBusy);
    return (error as PullBusy).code;
  });

describe("withPullSlot", () => {
  it("refuses a company's second pull while its first runs, and lets it pull once the first has ended", async () => {
    const first = runningPull("company-a");
    expect(await tryPull("company-a")).toBe("company_busy");
    expect(await tryPull("company-b")).toBe("ran");
    first.end("imported");
    expect(await first.pull).toBe("imported");
    expect(await tryPull("company-a")).toBe("ran");
  });

  it(`runs at most ${MAX_CATALOG_PULLS} pulls at once, and frees the slot of one that fails`, async () => {
    const running = Array.from({ length: MAX_CATALOG_PULLS }, (_, index) => runningPull(`company-${index}`));
    expect(await tryPull("one-more")).toBe("server_busy");
    running[0].fail(new Error("connection lost"));
    await expect(running[0].pull).rejects.toThrow("connection lost");
    expect(await tryPull("one-more")).toBe("ran");
    for (const each of running.slice(1)) each.end("imported");
    await Promise.all(running.slice(1).map((each) => each.pull));
    expect(await tryPull("company-1")).toBe("ran");
  });
});
