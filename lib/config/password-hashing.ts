/**
 * How new passwords are hashed (lib/crypto/password.ts): PASSWORD_HASH_ALGORITHM (argon2id, the default, or scrypt)
 * and Argon2id's cost, PASSWORD_ARGON2_MEMORY_KIB (19456), PASSWORD_ARGON2_TIME_COST (2 passes) and
 * PASSWORD_ARGON2_PARALLELISM (1 lane): OWASP's first recommendation. No setting goes below OWASP's weakest
 * recommended pair (7 MiB, 5 passes): at least 7168 KiB, and memory × passes at least 7168 × 5.
 */
import { ConfigError } from "@/lib/config/config-error";
import { readWholeNumber } from "@/lib/config/whole-number-settings";
import { DEFAULT_PASSWORD_HASHING, usePasswordHashing, type PasswordHashing } from "@/lib/crypto/password-hashing";

type Env = Record<string, string | undefined>;

const ALGORITHMS = ["argon2id", "scrypt"] as const;
const LEAST_MEMORY_KIB = 7168;
const LEAST_MEMORY_TIMES_PASSES = LEAST_MEMORY_KIB * 5;

function readAlgorithm(env: Env): PasswordHashing["algorithm"] {
  const raw = env.PASSWORD_HASH_ALGORITHM?.trim();
  if (!raw) return DEFAULT_PASSWORD_HASHING.algorithm;
  if (!ALGORITHMS.includes(raw as PasswordHashing["algorithm"]))
    throw new ConfigError("PASSWORD_HASH_ALGORITHM", `must be argon2id or scrypt (got "${raw}")`);
  return raw as PasswordHashing["algorithm"];
}

export function readPasswordHashing(env: Env): PasswordHashing {
  const defaults = DEFAULT_PASSWORD_HASHING.argon2;
  // Four hashes run at once (libuv's threads): 256 MiB each is already a gigabyte.
  const memoryCost = readWholeNumber(env, "PASSWORD_ARGON2_MEMORY_KIB", {
    min: LEAST_MEMORY_KIB,
    max: 262_144,
    default: defaults.memoryCost,
    unit: "KiB",
  });
  const timeCost = readWholeNumber(env, "PASSWORD_ARGON2_TIME_COST", {
    min: 1,
    max: 16,
    default: defaults.timeCost,
    unit: "passes",
  });
  if (memoryCost * timeCost < LEAST_MEMORY_TIMES_PASSES)
    throw new ConfigError(
      "PASSWORD_ARGON2_TIME_COST",
      `must make at least ${LEAST_MEMORY_TIMES_PASSES} KiB-passes with PASSWORD_ARGON2_MEMORY_KIB (OWASP's 7 MiB × 5 passes); ${memoryCost} × ${timeCost} is ${memoryCost * timeCost}`,
    );
  // Each lane takes its share of the memory; on a server busy with other sign-ins more lanes buy nothing.
  const parallelism = readWholeNumber(env, "PASSWORD_ARGON2_PARALLELISM", {
    min: 1,
    max: 8,
    default: defaults.parallelism,
    unit: "lanes",
  });
  return { algorithm: readAlgorithm(env), argon2: { memoryCost, timeCost, parallelism } };
}

/** Reads the settings and makes new hashes with them from now on (as the secret keys, handed over when read). */
export function applyPasswordHashing(env: Env): void {
  usePasswordHashing(readPasswordHashing(env));
}
