/**
 * User passwords. New hashes are Argon2id (RFC 9106) through @node-rs/argon2's prebuilt binding, at OWASP's first
 * recommendation unless the configuration says otherwise: 19 MiB, 2 passes, 1 lane, about 7 times less memory than
 * the scrypt hashes OptiGate made before (lib/crypto/scrypt-password.ts), which still verify. Each stored form names
 * its algorithm and cost: `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>` (the PHC string format) or
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>`; a hash of another algorithm or cost than today's is made anew at its user's next
 * sign-in (needsRehash). Both run on libuv's thread pool, the event loop free meanwhile, one hash per core at once
 * (lib/crypto/hashing-slots.ts).
 *
 * Tests only: with NODE_ENV=test, PASSWORD_HASH_COST (a power of two) lowers the memory of new hashes (Argon2id's
 * memory in KiB, scrypt's N) so that tests that are not about hashing do not spend their time hashing
 * (vitest.config.ts sets it for the integration tests). Any other NODE_ENV ignores it.
 */
import { hash as hashWithArgon2, verify as verifyArgon2, type Algorithm } from "@node-rs/argon2";
import { inHashingSlot } from "@/lib/crypto/hashing-slots";
import { passwordHashing, type Argon2Cost } from "@/lib/crypto/password-hashing";
import {
  hashWithScrypt,
  matchesScrypt,
  SCRYPT_COST,
  scryptCostOf,
  type ScryptCost,
} from "@/lib/crypto/scrypt-password";

/**
 * The longest input read as a password, in UTF-16 units: four times the policy's 256 characters, for characters that
 * NFKC composes. Anything longer is refused before hashing, at sign-in as for new passwords.
 */
export const MAX_PASSWORD_INPUT_LENGTH = 1024;
const LOWEST_TEST_COST = 16;
const HIGHEST_TEST_COST = SCRYPT_COST.N;
// The package's Algorithm is a const enum, which isolated modules cannot read: its value for Argon2id.
const ARGON2ID: Algorithm = 2;
const ARGON2ID_HASH =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,4}),p=(\d{1,3})\$[A-Za-z0-9+/]{11,86}\$[A-Za-z0-9+/]{22,86}$/;

/** The memory a test lowered new hashes to, read at each call so that a test can switch it; undefined elsewhere. */
function loweredTestCost(): number | undefined {
  const raw = process.env.PASSWORD_HASH_COST;
  if (process.env.NODE_ENV !== "test" || raw === undefined || raw === "") return undefined;
  const cost = Number(raw);
  // A typo must not silently fall back to the full cost, nor reach the hash function as a cryptic error.
  if (!/^\d+$/.test(raw) || cost < LOWEST_TEST_COST || cost > HIGHEST_TEST_COST || (cost & (cost - 1)) !== 0)
    throw new Error(
      `PASSWORD_HASH_COST must be a power of two from ${LOWEST_TEST_COST} to ${HIGHEST_TEST_COST} (got "${raw}")`,
    );
  return cost;
}

type Hashing = { algorithm: "scrypt"; cost: ScryptCost } | { algorithm: "argon2id"; cost: Argon2Cost };

/** The cost of new hashes of `algorithm`. */
function hashingWith(algorithm: HashAlgorithm): Hashing {
  const lowered = loweredTestCost();
  const { argon2 } = passwordHashing();
  if (algorithm === "scrypt") return { algorithm, cost: { ...SCRYPT_COST, N: lowered ?? SCRYPT_COST.N } };
  return { algorithm, cost: { ...argon2, memoryCost: lowered ?? argon2.memoryCost } };
}

/** The algorithm and cost of new hashes. */
const currentHashing = (): Hashing => hashingWith(passwordHashing().algorithm);

function hashNormalized(normalized: string, { algorithm, cost }: Hashing): Promise<string> {
  return inHashingSlot(() =>
    algorithm === "scrypt"
      ? hashWithScrypt(normalized, cost)
      : hashWithArgon2(normalized, { ...cost, algorithm: ARGON2ID }),
  );
}

/** Hashes the password in NFKC, so that another keyboard's forms of the same characters match it later. */
export async function hashPassword(password: string): Promise<string> {
  return hashNormalized(password.normalize("NFKC"), currentHashing());
}

/**
 * Compared in NFKC, as hashed. scrypt hashes made before OptiGate used NFKC (it used NFC) keep verifying for the rare
 * passwords whose forms differ; every Argon2id hash was made in NFKC. A stored value of neither form never matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_INPUT_LENGTH) return false;
  const nfkc = password.normalize("NFKC");
  if (ARGON2ID_HASH.test(stored)) return inHashingSlot(() => verifyArgon2(stored, nfkc));
  if (!scryptCostOf(stored)) return false;
  const nfc = password.normalize("NFC");
  return inHashingSlot(
    async () => (await matchesScrypt(nfkc, stored)) || (nfc !== nfkc && (await matchesScrypt(nfc, stored))),
  );
}

export type HashAlgorithm = "argon2id" | "scrypt";

/** How each algorithm's stored form begins. */
export const HASH_PREFIXES: Record<HashAlgorithm, string> = { argon2id: "$argon2id$", scrypt: "scrypt$" };

/** The algorithm of new hashes. */
export const currentHashAlgorithm = (): HashAlgorithm => passwordHashing().algorithm;

/** The algorithm a stored value was made with; undefined for a value that is no hash of either. */
export function hashAlgorithmOf(stored: string): HashAlgorithm | undefined {
  if (ARGON2ID_HASH.test(stored)) return "argon2id";
  return scryptCostOf(stored) ? "scrypt" : undefined;
}

const throwAwayHashes = new Map<string, Promise<string>>();

/**
 * A hash of nothing anyone knows, made once per process with `algorithm` at today's cost: checking a password
 * against it costs what checking against a user's hash of that algorithm does.
 */
export function throwAwayHash(algorithm: HashAlgorithm): Promise<string> {
  const hashing = hashingWith(algorithm);
  const key = JSON.stringify(hashing);
  let made = throwAwayHashes.get(key);
  if (!made) throwAwayHashes.set(key, (made = hashNormalized(crypto.randomUUID(), hashing)));
  return made;
}

/** Whether a stored hash was made with another algorithm or cost than today's, so it should be made anew. */
export function needsRehash(stored: string): boolean {
  const { algorithm, cost } = currentHashing();
  if (algorithm === "scrypt") {
    const made = scryptCostOf(stored);
    return !made || made.N !== cost.N || made.r !== cost.r || made.p !== cost.p;
  }
  const [, memoryCost, timeCost, parallelism] = ARGON2ID_HASH.exec(stored) ?? [];
  return (
    Number(memoryCost) !== cost.memoryCost ||
    Number(timeCost) !== cost.timeCost ||
    Number(parallelism) !== cost.parallelism
  );
}
