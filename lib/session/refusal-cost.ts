/**
 * A refused password takes as long whether or not its account exists. An unknown address is checked against a
 * throw-away hash of today's algorithm; while some users still have hashes of the other one (after a change of
 * algorithm, until each has signed in once), every refusal also checks against a throw-away hash of the algorithm it
 * was not checked with, so that it costs one check of each, whichever hash the account has or whether there is one.
 */
import {
  currentHashAlgorithm,
  HASH_PREFIXES,
  throwAwayHash,
  verifyPassword,
  type HashAlgorithm,
} from "@/lib/crypto/password";
import type { UserStore } from "@/lib/store/user-store";

/** How long a process trusts its answer to "do hashes of the other algorithm remain?" */
const REMAINING_CHECK_MS = 5 * 60 * 1000;

const remaining = new WeakMap<UserStore, { checkedAt: number; answer: Promise<boolean> }>();

function hashesRemain(users: UserStore, algorithm: HashAlgorithm, now: number): Promise<boolean> {
  const known = remaining.get(users);
  if (known && now - known.checkedAt < REMAINING_CHECK_MS) return known.answer;
  const answer = users.hasPasswordHashes(HASH_PREFIXES[algorithm]);
  remaining.set(users, { checkedAt: now, answer });
  return answer;
}

/** The hash an unknown address is checked against. */
export const hashForUnknownAccounts = (): Promise<string> => throwAwayHash(currentHashAlgorithm());

/**
 * After a refusal checked against a hash of `checked`: the check of the other algorithm while its hashes remain;
 * which algorithm that added (null: none was needed).
 */
export async function matchRefusalCost(
  users: UserStore,
  password: string,
  checked: HashAlgorithm,
  now = Date.now(),
): Promise<HashAlgorithm | null> {
  const current = currentHashAlgorithm();
  const other: HashAlgorithm = current === "argon2id" ? "scrypt" : "argon2id";
  if (!(await hashesRemain(users, other, now))) return null;
  const added = checked === current ? other : current;
  await verifyPassword(password, await throwAwayHash(added));
  return added;
}
