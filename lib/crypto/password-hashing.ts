/**
 * The algorithm and cost of new password hashes (lib/crypto/password.ts), as the configuration sets them when it is
 * read (lib/config/password-hashing.ts), as it hands the secret keys over; the defaults until then. Apart from the
 * hashing itself, so that reading the configuration does not load the native binding.
 */

/** Argon2id's cost: memory in KiB, passes, lanes (RFC 9106's m, t and p). */
export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface PasswordHashing {
  /** The algorithm of new hashes; scrypt only to compare (the bench) or to step back. */
  algorithm: "argon2id" | "scrypt";
  argon2: Argon2Cost;
}

/** OWASP's first recommendation for Argon2id: 19 MiB, 2 passes, 1 lane. */
export const DEFAULT_PASSWORD_HASHING: PasswordHashing = {
  algorithm: "argon2id",
  argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
};

let chosen = DEFAULT_PASSWORD_HASHING;

export function usePasswordHashing(hashing: PasswordHashing): void {
  chosen = hashing;
}

export const passwordHashing = (): PasswordHashing => chosen;
