/**
 * User passwords, hashed with scrypt (memory-hard) from node:crypto at N=2^17, r=8, p=1 (OWASP's recommendation:
 * 128 MiB and about 0.3 s per hash here; libuv's four threads bound how many run at once). Stored form:
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` with salt and hash in base64url, so the cost can be raised while old hashes
 * keep verifying; a hash made at a lower cost is replaced at its user's next sign-in (needsRehash).
 *
 * Tests only: with NODE_ENV=test, PASSWORD_HASH_COST (a power of two, the N of new hashes) lowers the cost so that
 * tests that are not about hashing do not spend 0.3 s per password (vitest.config.ts sets it for the integration
 * tests). Any other NODE_ENV ignores it, so no deployment, development server or CLI can hash below the full cost.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const COST = { N: 2 ** 17, r: 8, p: 1 } as const;

/**
 * The longest input read as a password, in UTF-16 units: four times the policy's 256 characters, for characters that
 * NFKC composes. Anything longer is refused before hashing, at sign-in as for new passwords.
 */
export const MAX_PASSWORD_INPUT_LENGTH = 1024;
const KEY_LENGTH = 32;

/** The cost of new hashes: the full cost, unless a test lowered N (read at each call so a test can switch it). */
function currentCost(): { N: number; r: number; p: number } {
  const raw = process.env.PASSWORD_HASH_COST;
  if (process.env.NODE_ENV !== "test" || raw === undefined || raw === "") return COST;
  const N = Number(raw);
  // A typo must not silently fall back to the slow cost, nor reach scrypt as a cryptic error; below 16 nothing is
  // saved, and N=2 needs more memory than scrypt() below allows.
  if (!/^\d+$/.test(raw) || N < 16 || N > COST.N || (N & (N - 1)) !== 0)
    throw new Error(`PASSWORD_HASH_COST must be a power of two from 16 to ${COST.N} (got "${raw}")`);
  return { ...COST, N };
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // Memory needed is 128 * N * r bytes; allow twice that.
  const maxmem = 256 * (options.N ?? COST.N) * (options.r ?? COST.r);
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const cost = currentCost();
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize("NFKC"), salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

async function matches(password: string, parts: string[]): Promise<boolean> {
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], "base64url");
  const key = await scrypt(password, Buffer.from(parts[4], "base64url"), { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Compared in NFKC, as hashed, so that a password typed with another keyboard's forms of the same characters still
 * matches. Hashes made before OptiGate used NFKC (it used NFC) keep verifying for the rare passwords whose forms differ.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt" || password.length > MAX_PASSWORD_INPUT_LENGTH) return false;
  const nfkc = password.normalize("NFKC");
  if (await matches(nfkc, parts)) return true;
  const nfc = password.normalize("NFC");
  return nfc !== nfkc && (await matches(nfc, parts));
}

/** Whether a stored hash was made at another cost than today's, so it should be made anew from the password. */
export function needsRehash(stored: string): boolean {
  const [scheme, N, r, p] = stored.split("$");
  const cost = currentCost();
  return scheme !== "scrypt" || Number(N) !== cost.N || Number(r) !== cost.r || Number(p) !== cost.p;
}
