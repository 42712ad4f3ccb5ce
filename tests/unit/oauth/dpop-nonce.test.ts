import { describe, expect, it } from "vitest";
import { currentDpopNonce, isCurrentDpopNonce } from "@/lib/oauth/dpop/dpop-nonce";

const SECRET = "nonce-test-secret-key-0123456789-abcdef";
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 25, 12, 0) + minutes * 60_000);

describe("DPoP nonces", () => {
  it("are valid in their period and the next, not later, and only under their secret key", () => {
    const nonce = currentDpopNonce(SECRET, at(0));
    expect(isCurrentDpopNonce(SECRET, nonce, at(4))).toBe(true);
    expect(isCurrentDpopNonce(SECRET, nonce, at(9))).toBe(true);
    expect(isCurrentDpopNonce(SECRET, nonce, at(10))).toBe(false);
    expect(isCurrentDpopNonce(`${SECRET}x`, nonce, at(0))).toBe(false);
    expect(isCurrentDpopNonce(SECRET, "", at(0))).toBe(false);
  });

  it("change from one period to the next", () => {
    expect(currentDpopNonce(SECRET, at(0))).not.toBe(currentDpopNonce(SECRET, at(5)));
  });
});
