/** User codes (RFC 8628 §6.1): drawn from 20 consonants, shown in two groups, typed loosely, stored as a keyed hash. */
import { describe, expect, it } from "vitest";
import {
  formatUserCode,
  generateUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  userCodeHash,
} from "@/lib/oauth/device/user-code";

describe("user codes", () => {
  it("draw from 20 letters without vowels or look-alikes", () => {
    expect(USER_CODE_ALPHABET).toHaveLength(20);
    expect(new Set(USER_CODE_ALPHABET).size).toBe(20);
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY0-9]/);
  });

  it("are 8 letters of the alphabet, every letter of it coming up", () => {
    const codes = Array.from({ length: 400 }, generateUserCode);
    for (const code of codes) expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
    expect(new Set(codes.join("")).size).toBe(20);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("are shown as two groups of four", () => {
    expect(formatUserCode("BCDFGHJK")).toBe("BCDF-GHJK");
  });

  it.each([
    ["BCDF-GHJK", "BCDFGHJK"],
    ["bcdf-ghjk", "BCDFGHJK"],
    [" bcdf ghjk ", "BCDFGHJK"],
    ["BCDFGHJK", "BCDFGHJK"],
    ["BC.DF_GH-JK", "BCDFGHJK"],
    ["BCDF-GHJ", undefined],
    ["BCDF-GHJKL", undefined],
    ["BCDF-GHJA", undefined],
    ["BCDF-GHJ1", undefined],
    ["BCDF/GHJK", undefined],
    ["", undefined],
  ])("normalize %j to %j", (typed, normalized) => {
    expect(normalizeUserCode(typed)).toBe(normalized);
  });

  it("are stored under a hash keyed by SECRET_KEY, the same for every way of typing them", () => {
    const key = "unit-test-secret-key-0123456789abcdef";
    const hash = userCodeHash(normalizeUserCode("bcdf ghjk")!, key);
    expect(userCodeHash(normalizeUserCode("BCDF-GHJK")!, key)).toBe(hash);
    expect(userCodeHash("BCDFGHJK", "another-secret-key-0123456789abcdef")).not.toBe(hash);
    expect(hash).not.toContain("BCDFGHJK");
    expect(Buffer.from(hash, "base64url")).toHaveLength(32);
  });
});
