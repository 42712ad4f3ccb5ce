/**
 * The operator's signing keys, the same for `keys list|rotate|retire` and /manage/v1/keys: each key with its state
 * (active: it signs; published: superseded, still in the JWKS until the tokens it signed expire; retired: gone from
 * the JWKS), a rotation (new active keys; the old ones stay published), and retiring a superseded key at once (a
 * leaked key: its tokens stop verifying). Never a private part. This process forgets its cached key set after a
 * change; others see it within KEY_CACHE_SECONDS.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { rotateSigningKey } from "@/lib/oauth/keys/signing-keys";
import { SIGNING_ALGORITHMS, type SigningAlgorithm } from "@/lib/store/models/signing-key";
import { forgetKeySet } from "@/lib/store/signing-key-store";
import type { Stores } from "@/lib/store/stores";

export class SigningKeyError extends OptiGateError<"not_found" | "invalid_state"> {
  constructor(
    readonly code: "not_found" | "invalid_state",
    message: string,
  ) {
    super(message);
  }
}

type KeyState = "active" | "published" | "retired";

export interface SigningKeyInfo {
  kid: string;
  alg: string;
  state: KeyState;
  createdAt: Date;
  /** when a newer key took over signing; null while active */
  supersededAt: Date | null;
  /** when it leaves (or left) the JWKS; null while active */
  retiredAt: Date | null;
}

/** A key as JSON, the same for `keys list --json` and /manage/v1/keys. */
export const signingKeyJson = (key: SigningKeyInfo) => ({
  kid: key.kid,
  alg: key.alg,
  state: key.state,
  created_at: key.createdAt.toISOString(),
  superseded_at: key.supersededAt?.toISOString() ?? null,
  retired_at: key.retiredAt?.toISOString() ?? null,
});

function stateOf(key: { supersededAt: Date | null; retiredAt: Date | null }, now: Date): KeyState {
  if (key.supersededAt === null) return "active";
  return key.retiredAt && key.retiredAt > now ? "published" : "retired";
}

/** Every key, oldest first. */
export async function listSigningKeys(stores: Stores, now = new Date()): Promise<SigningKeyInfo[]> {
  return (await stores.signingKeys.list()).map(({ id, algorithm, createdAt, supersededAt, retiredAt }) => ({
    kid: id,
    alg: algorithm,
    state: stateOf({ supersededAt, retiredAt }, now),
    createdAt,
    supersededAt,
    retiredAt,
  }));
}

/** A new active key for `alg`, or for every algorithm OptiGate signs with; the keys they supersede stay published. */
export async function rotateSigningKeys(
  stores: Stores,
  secretKey: string,
  alg?: SigningAlgorithm,
  by?: string,
): Promise<{ alg: SigningAlgorithm; kid: string; superseded: string[] }[]> {
  const rotated = [];
  for (const algorithm of alg ? [alg] : SIGNING_ALGORITHMS) {
    const { kid, retired } = await rotateSigningKey(stores.signingKeys, algorithm, secretKey, new Date(), by);
    rotated.push({ alg: algorithm, kid, superseded: retired });
  }
  forgetKeySet();
  return rotated;
}

/**
 * Takes a superseded key out of the JWKS now. The active key of an algorithm is refused (rotate first): without it
 * nothing of that algorithm could be signed, and an algorithm's last published key is always its active one.
 */
export async function retireSigningKey(stores: Stores, kid: string, by?: string): Promise<void> {
  const outcome = await stores.signingKeys.retire(kid, new Date(), by);
  if (outcome === "not_found") throw new SigningKeyError("not_found", `there is no signing key "${kid.slice(0, 80)}"`);
  if (outcome === "active")
    throw new SigningKeyError(
      "invalid_state",
      `key "${kid}" is the active key of its algorithm and still signs: rotate first, then retire it`,
    );
  if (outcome === "already_retired") throw new SigningKeyError("invalid_state", `key "${kid}" is retired already`);
  forgetKeySet();
}
