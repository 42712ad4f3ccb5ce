import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/crypto/password";
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
  it("are hashed with scrypt and a random salt", async () => {
    const hash = await hashPassword("Optician#2026");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hashPassword("Optician#2026")).not.toBe(hash);
    expect(await verifyPassword("Optician#2026", hash)).toBe(true);
    expect(await verifyPassword("optician#2026", hash)).toBe(false);
    expect(await verifyPassword("Optician#2026", "not-a-hash")).toBe(false);
  });
});
