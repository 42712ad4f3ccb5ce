import { afterEach, describe, expect, it, vi } from "vitest";
import { logClientAbortsQuietly } from "@/lib/observability/client-aborts";

const original = console.error;
afterEach(() => {
  console.error = original;
});

const abort = () => Object.assign(new Error("aborted"), { code: "ECONNRESET" });

describe("a caller's abort in the log", () => {
  it("is no console error, while any other error still is", () => {
    const reported = vi.fn();
    console.error = reported;
    logClientAbortsQuietly();
    console.error(abort());
    expect(reported).not.toHaveBeenCalled();
    const failure = new Error("database is locked");
    console.error(failure);
    console.error("context:", abort());
    console.error(Object.assign(new Error("aborted"), { code: "EPIPE" }));
    expect(reported.mock.calls.map((call) => call[0])).toEqual([failure, "context:", expect.any(Error)]);
  });
});
