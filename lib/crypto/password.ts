/**
 * User passwords, hashed with scrypt (memory-hard) from node:crypto at N=2^17, r=8, p=1 (OWASP's recommendation:
 * 128 MiB and about 0.3 s per hash here; libuv's four threads bound how many run at once). Stored form:
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` with salt and hash in base64url, so the cost can be raised while old hashes
 * keep verifying; a hash made at a lower cost is replaced at its user's next sign-in (needsRehash).
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // Memory needed is 128 * N * r bytes; allow twice that.
  const maxmem = 256 * (options.N ?? COST.N) * (options.r ?? COST.r);
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize("NFC"), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], "base64url");
  const key = await scrypt(password, Buffer.from(parts[4], "base64url"), { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Whether a stored hash was made at another cost than today's, so it should be made anew from the password. */
export function needsRehash(stored: string): boolean {
  const [scheme, N, r, p] = stored.split("$");
  return scheme !== "scrypt" || Number(N) !== COST.N || Number(r) !== COST.r || Number(p) !== COST.p;
}
