import { createHash, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/crypto/password";
import { acceptOlderSecretKeys, isSealedUnder, seal, secretKeyId, unseal } from "@/lib/crypto/secret-box";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";

describe("opaque tokens", () => {
  it("carry 256 random bits and are stored as SHA-256", () => {
    const token = generateOpaqueToken();
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(generateOpaqueToken()).not.toBe(token);
    expect(hashToken(token)).toBe(createHash("sha256").update(token).digest("base64url"));
  });
});

describe("passwords", () => {
  // Four hashes at the full cost: a fraction of a second alone, more on a machine busy with other work.
  it("are hashed with Argon2id at OWASP's m=19 MiB, t=2, p=1 and a random salt", { timeout: 30_000 }, async () => {
    const hash = await hashPassword("Optician#2026");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(needsRehash(hash)).toBe(false);
    expect(await hashPassword("Optician#2026")).not.toBe(hash);
    expect(await verifyPassword("Optician#2026", hash)).toBe(true);
    expect(await verifyPassword("optician#2026", hash)).toBe(false);
    expect(await verifyPassword("Optician#2026", "not-a-hash")).toBe(false);
  });
});

describe("passwords hashed with scrypt, before Argon2id", () => {
  it("still verify, and are marked to be hashed anew", async () => {
    const salt = Buffer.from("0123456789abcdef");
    const old = [
      "scrypt",
      2 ** 15,
      8,
      1,
      salt.toString("base64url"),
      scryptSync("Optician#2026", salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString("base64url"),
    ].join("$");
    expect(await verifyPassword("Optician#2026", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });
});

describe("sealed data", () => {
  const secret = "unit-test-secret-key-0123456789abcdef";
  const older = "older-unit-test-secret-key-0123456789";

  it("opens only with its full 16-byte tag, for its purpose, under its key", () => {
    const sealed = seal("secret", secret, "cookie:test");
    expect(unseal(sealed, secret, "cookie:test")).toBe("secret");
    const [id, iv, ciphertext, tag] = sealed.split(".");
    expect(id).toBe(secretKeyId(secret));
    const shortTag = Buffer.from(tag, "base64url").subarray(0, 4).toString("base64url");
    expect(() => unseal([id, iv, ciphertext, shortTag].join("."), secret, "cookie:test")).toThrow();
    expect(() => unseal(sealed, secret, "cookie:other")).toThrow();
    expect(() => unseal(sealed, "another-secret-key-0123456789abcdefgh", "cookie:test")).toThrow();
  });

  it("opens values of an older key while SECRET_KEYS lists it, and refuses them once it is dropped", () => {
    const sealedBefore = seal("kept", older, "outbox");
    const legacy = sealedBefore.split(".").slice(1).join("."); // sealed before values named their key
    const rotated = `rotated-${secret}`;
    acceptOlderSecretKeys(rotated, [older]);
    expect(unseal(sealedBefore, rotated, "outbox")).toBe("kept");
    expect(unseal(legacy, rotated, "outbox")).toBe("kept");
    expect(isSealedUnder(seal("new", rotated, "outbox"), rotated)).toBe(true);
    expect(isSealedUnder(sealedBefore, rotated)).toBe(false);
    acceptOlderSecretKeys(rotated, []);
    expect(() => unseal(sealedBefore, rotated, "outbox")).toThrow(/no longer accepted/);
    expect(() => unseal(legacy, rotated, "outbox")).toThrow();
  });
});
