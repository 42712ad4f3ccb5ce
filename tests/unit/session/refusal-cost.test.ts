/**
 * While scrypt hashes remain, a refusal checked against one algorithm also checks against the other, so that every
 * refusal costs one of each; once none remain (asked again after five minutes), nothing is added.
 */
import { describe, expect, it } from "vitest";
import { hashPassword, throwAwayHash, verifyPassword } from "@/lib/crypto/password";
import { hashWithScrypt } from "@/lib/crypto/scrypt-password";
import { hashForUnknownAccounts, matchRefusalCost } from "@/lib/session/refusal-cost";

describe("the cost of a refused password", () => {
  it("adds the other algorithm's check while its hashes remain, and nothing once none do", async () => {
    const scrypt = await hashWithScrypt("old", { N: 16, r: 8, p: 1 });
    const argon = await hashPassword("new");
    const users = { hasPasswordHashes: async (prefix: string) => [scrypt, argon].some((h) => h.startsWith(prefix)) };
    const now = Date.now();
    expect(await matchRefusalCost(users as never, "guess", "argon2id", now)).toBe("scrypt");
    expect(await matchRefusalCost(users as never, "guess", "scrypt", now)).toBe("argon2id");
    const migrated = { hasPasswordHashes: async (prefix: string) => argon.startsWith(prefix) };
    expect(await matchRefusalCost(migrated as never, "guess", "argon2id", now)).toBeNull();
  });

  it("asks again whether such hashes remain only after five minutes", async () => {
    let asked = 0;
    let remain = true;
    const users = {
      hasPasswordHashes: async () => {
        asked++;
        return remain;
      },
    };
    const now = Date.now();
    expect(await matchRefusalCost(users as never, "guess", "argon2id", now)).toBe("scrypt");
    remain = false;
    expect(await matchRefusalCost(users as never, "guess", "argon2id", now + 60_000)).toBe("scrypt");
    expect(await matchRefusalCost(users as never, "guess", "argon2id", now + 5 * 60_000 + 1)).toBeNull();
    expect(asked).toBe(2);
  });

  it("checks unknown addresses against a throw-away hash of today's algorithm that nothing matches", async () => {
    const hash = await hashForUnknownAccounts();
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await hashForUnknownAccounts()).toBe(hash);
    expect(await verifyPassword("", hash)).toBe(false);
    expect(await throwAwayHash("scrypt")).toMatch(/^scrypt\$/);
  });
});
