/**
 * The test-only hashing cost: PASSWORD_HASH_COST lowers N with NODE_ENV=test and nowhere else, and hashes of any
 * cost keep verifying because each carries its own. (Hashing at the full cost: secrets.test.ts.)
 */
import { scryptSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/crypto/password";

/** A stored hash of `password` at cost N (r=8, p=1), made without the module. */
function storedHash(N: number, password = "Optician#2026"): string {
  const salt = Buffer.from("0123456789abcdef");
  const key = scryptSync(password, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return ["scrypt", N, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** The N of new hashes, read without hashing at it: the one cost needsRehash does not flag. */
const costInForce = () => [2 ** 10, 2 ** 17].filter((N) => !needsRehash(`scrypt$${N}$8$1$salt$hash`));

afterEach(() => vi.unstubAllEnvs());

describe("the cost of new hashes", () => {
  it.each<[string | undefined, string | undefined, number]>([
    ["test", "1024", 1024],
    ["test", undefined, 131072],
    ["test", "", 131072],
    ["production", "1024", 131072],
    ["development", "1024", 131072],
    [undefined, "1024", 131072],
  ])("NODE_ENV=%s, PASSWORD_HASH_COST=%s: N=%i", (nodeEnv, cost, N) => {
    vi.stubEnv("NODE_ENV", nodeEnv);
    vi.stubEnv("PASSWORD_HASH_COST", cost);
    expect(costInForce()).toEqual([N]);
  });

  it("hashes at the lowered cost in tests, and such a hash verifies", async () => {
    vi.stubEnv("NODE_ENV", "test");
    vi.stubEnv("PASSWORD_HASH_COST", "1024");
    const hash = await hashPassword("Optician#2026");
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword("Optician#2026", hash)).toBe(true);
    expect(await verifyPassword("optician#2026", hash)).toBe(false);
  });

  it("verifies a hash of another cost while the cost is lowered, since the hash carries its parameters", async () => {
    vi.stubEnv("NODE_ENV", "test");
    vi.stubEnv("PASSWORD_HASH_COST", "16");
    const hash = storedHash(2 ** 14);
    expect(await verifyPassword("Optician#2026", hash)).toBe(true);
    expect(await verifyPassword("Optician#2027", hash)).toBe(false);
    expect(needsRehash(hash)).toBe(true);
  });
});

describe("PASSWORD_HASH_COST refusals", () => {
  it.each(["abc", "1e3", "0x400", "-1024", "1000", "8", "262144", " 1024"])("refuses %j", async (cost) => {
    vi.stubEnv("NODE_ENV", "test");
    vi.stubEnv("PASSWORD_HASH_COST", cost);
    const message = `PASSWORD_HASH_COST must be a power of two from 16 to 131072 (got "${cost}")`;
    expect(() => needsRehash(storedHash(16))).toThrow(new Error(message));
    await expect(hashPassword("x")).rejects.toThrow(new Error(message));
  });
});
