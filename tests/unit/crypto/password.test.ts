/**
 * Password hashes: Argon2id in the PHC string format at the configured cost, scrypt hashes of before still verifying,
 * needsRehash flagging every hash of another algorithm or cost, and the test-only PASSWORD_HASH_COST, which lowers
 * the memory with NODE_ENV=test and nowhere else. (Hashing at the full cost: secrets.test.ts.)
 */
import { scryptSync } from "node:crypto";
import { hash as argon2 } from "@node-rs/argon2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/crypto/password";
import { DEFAULT_PASSWORD_HASHING, usePasswordHashing } from "@/lib/crypto/password-hashing";

/** A stored scrypt hash of `password` at cost N (r=8, p=1), made without the module. */
function scryptHash(N: number, password = "Optician#2026"): string {
  const salt = Buffer.from("0123456789abcdef");
  const key = scryptSync(password, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return ["scrypt", N, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** A stored Argon2id hash of `password` at memory m (KiB), t=2, p=1, made without the module. */
const argon2Hash = (m: number, password = "Optician#2026") =>
  argon2(password, { memoryCost: m, timeCost: 2, parallelism: 1 });

const fakeArgon2 = (cost: string) => `$argon2id$v=19$${cost}$MDEyMzQ1Njc4OWFiY2RlZg$${"A".repeat(43)}`;

afterEach(() => {
  vi.unstubAllEnvs();
  usePasswordHashing(DEFAULT_PASSWORD_HASHING);
});

const lowered = (cost: string) => {
  vi.stubEnv("NODE_ENV", "test");
  vi.stubEnv("PASSWORD_HASH_COST", cost);
};

describe("new hashes", () => {
  it("are Argon2id at the configured cost, in the PHC string format, with a random salt", async () => {
    usePasswordHashing({ algorithm: "argon2id", argon2: { memoryCost: 8192, timeCost: 3, parallelism: 2 } });
    const hash = await hashPassword("Optician#2026");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=8192,t=3,p=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hashPassword("Optician#2026")).not.toBe(hash);
    expect(await verifyPassword("Optician#2026", hash)).toBe(true);
    expect(await verifyPassword("optician#2026", hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it("are scrypt when the configuration says so, and then Argon2id hashes are the ones made anew", async () => {
    lowered("1024");
    usePasswordHashing({ ...DEFAULT_PASSWORD_HASHING, algorithm: "scrypt" });
    const hash = await hashPassword("Optician#2026");
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword("Optician#2026", hash)).toBe(true);
    expect(needsRehash(hash)).toBe(false);
    expect(needsRehash(await argon2Hash(1024))).toBe(true);
  });
});

describe("stored hashes", () => {
  it("of either algorithm verify, each at the cost it carries", async () => {
    lowered("16");
    for (const stored of [scryptHash(2 ** 14), await argon2Hash(4096)]) {
      expect(await verifyPassword("Optician#2026", stored)).toBe(true);
      expect(await verifyPassword("Optician#2027", stored)).toBe(false);
    }
  });

  it.each([
    ["scrypt", scryptHash(1024)],
    ["Argon2id at another memory", fakeArgon2("m=1024,t=2,p=1")],
    ["Argon2id at another number of passes", fakeArgon2("m=19456,t=3,p=1")],
    ["Argon2id with other lanes", fakeArgon2("m=19456,t=2,p=2")],
    ["neither", "not-a-hash"],
  ])("are made anew when %s", (_, stored) => {
    expect(needsRehash(stored)).toBe(true);
  });

  it("are kept when they are Argon2id at today's cost", () => {
    expect(needsRehash(fakeArgon2("m=19456,t=2,p=1"))).toBe(false);
  });

  it.each([
    "not-a-hash",
    "",
    "scrypt$1024$8$1$salt",
    "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
  ])("never match when they are no hash of either form: %j", async (stored) => {
    expect(await verifyPassword("Optician#2026", stored)).toBe(false);
  });
});

describe("the test-only cost", () => {
  it.each<[string | undefined, string | undefined, number]>([
    ["test", "1024", 1024],
    ["test", undefined, 19456],
    ["test", "", 19456],
    ["production", "1024", 19456],
    ["development", "1024", 19456],
    [undefined, "1024", 19456],
  ])("NODE_ENV=%s, PASSWORD_HASH_COST=%s: m=%i", (nodeEnv, cost, memory) => {
    vi.stubEnv("NODE_ENV", nodeEnv);
    vi.stubEnv("PASSWORD_HASH_COST", cost);
    expect([1024, 19456].filter((m) => !needsRehash(fakeArgon2(`m=${m},t=2,p=1`)))).toEqual([memory]);
  });

  it.each(["abc", "1e3", "0x400", "-1024", "1000", "8", "262144", " 1024"])("refuses %j", async (cost) => {
    lowered(cost);
    const message = `PASSWORD_HASH_COST must be a power of two from 16 to 131072 (got "${cost}")`;
    expect(() => needsRehash(scryptHash(16))).toThrow(new Error(message));
    await expect(hashPassword("x")).rejects.toThrow(new Error(message));
  });
});
