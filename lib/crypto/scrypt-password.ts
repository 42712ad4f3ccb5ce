/**
 * Passwords hashed with scrypt from node:crypto, OptiGate's algorithm before Argon2id (lib/crypto/password.ts): N=2^17,
 * r=8, p=1, that is 128 MiB and about 0.3 s a hash. Stored form: `scrypt$<N>$<r>$<p>$<salt>$<hash>`, salt and hash
 * in base64url, so that every hash carries the cost it was made at.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";

export const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
export type ScryptCost = { N: number; r: number; p: number };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // Memory needed is 128 * N * r bytes; allow twice that.
  const maxmem = 256 * cost.N * cost.r;
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** The cost a stored scrypt hash was made at, or undefined when `stored` is no scrypt hash. */
export function scryptCostOf(stored: string): ScryptCost | undefined {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt" || !parts.slice(1, 4).every((part) => /^\d{1,7}$/.test(part)))
    return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  return { N, r, p };
}

export async function hashWithScrypt(password: string, cost: ScryptCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` (already normalized) is the one `stored` (a scrypt hash, see scryptCostOf) was made of. */
export async function matchesScrypt(password: string, stored: string): Promise<boolean> {
  const cost = scryptCostOf(stored);
  if (!cost) return false;
  const [, , , , salt, hash] = stored.split("$");
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), cost);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
