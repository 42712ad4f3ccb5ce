/**
 * The service's signing keys. One active key per algorithm OptiGate signs with (access tokens: TOKEN_SIGNING_ALG;
 * ID tokens: any of the three, per client, so discovery advertises all and each has a published key) is created by
 * `npm run migrate` or the start script, or else by the first process that needs to sign. Rotation makes a new key
 * active and keeps the old one published in the JWKS until every token it signed has expired. Private keys are stored
 * sealed with a key derived from SECRET_KEY (lib/store/signing-key-store.ts).
 */
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, type JWK } from "jose";
import { seal } from "@/lib/crypto/secret-box";
import {
  forgetKeySet,
  type ActiveKey,
  type KeySet,
  type NewSigningKey,
  type SigningKeyStore,
} from "@/lib/store/signing-key-store";
import type { SigningAlgorithm } from "@/lib/store/models/signing-key";

async function createKey(alg: SigningAlgorithm, secretKey: string): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const jwk: JWK = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    id: kid,
    algorithm: alg,
    publicJwk: JSON.stringify({ ...jwk, kid, alg, use: "sig" }),
    privateKeyEncrypted: seal(await exportPKCS8(privateKey), secretKey, "signing-key-encryption"),
  };
}

/** Creates the active key of each required algorithm that has none; returns the kids it created. */
export async function ensureSigningKeys(
  keys: SigningKeyStore,
  algorithms: SigningAlgorithm[],
  secretKey: string,
  now = new Date(),
): Promise<string[]> {
  const created: string[] = [];
  for (const alg of algorithms) {
    if (await keys.hasActive(alg)) continue;
    const key = await createKey(alg, secretKey);
    await keys.save(key, now);
    created.push(key.id);
  }
  return created;
}

/** Makes a new key active for `alg`; the previous one stays published for KEY_RETENTION_SECONDS. */
export async function rotateSigningKey(
  keys: SigningKeyStore,
  alg: SigningAlgorithm,
  secretKey: string,
  now = new Date(),
  by?: string,
): Promise<{ kid: string; retired: string[] }> {
  const key = await createKey(alg, secretKey);
  return { kid: key.id, retired: await keys.rotateIn(key, now, by) };
}

export function activeKey(keys: KeySet, alg: SigningAlgorithm): ActiveKey {
  const key = keys.active.get(alg);
  if (!key) throw new Error(`no active ${alg} signing key`);
  return key;
}

/**
 * The active key for `alg`, created first when there is none: when only Next.js serves and nothing prepared the
 * database (`npm run migrate`), the first process that signs makes it.
 */
export async function signingKeyFor(
  keys: SigningKeyStore,
  secretKey: string,
  alg: SigningAlgorithm,
): Promise<ActiveKey> {
  const key = (await keys.keySet(secretKey)).active.get(alg);
  if (key) return key;
  await ensureSigningKeys(keys, [alg], secretKey);
  forgetKeySet();
  return activeKey(await keys.keySet(secretKey), alg);
}
