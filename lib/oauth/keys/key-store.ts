/**
 * The keys in use, cached per process for a short while so that token requests do not read them from the database;
 * a rotation by another process (the CLI) is picked up within KEY_CACHE_SECONDS. The old key stays published for
 * much longer than that, so tokens signed by a process that has not noticed the rotation yet still verify.
 */
import { KEY_CACHE_SECONDS } from "@/lib/config/policy";
import { createPrivateKey, type KeyObject } from "node:crypto";
import { createLocalJWKSet, type JSONWebKeySet, type JWK } from "jose";
import { deriveKey, unseal } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/prisma";
import { ensureSigningKeys, type SigningAlgorithm } from "@/lib/oauth/keys/signing-keys";
import { processCache } from "@/lib/cache/process-cache";

export interface ActiveKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: KeyObject;
}

export interface KeySet {
  jwks: JSONWebKeySet;
  active: Map<SigningAlgorithm, ActiveKey>;
  verify: ReturnType<typeof createLocalJWKSet>;
}

const cache = processCache("signingKeys", () => ({
  entry: undefined as { loadedAt: number; keys: Promise<KeySet> } | undefined,
}));

async function loadKeySet(db: Db, secretKey: string, now: Date): Promise<KeySet> {
  const rows = await db.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: now } }] },
    orderBy: { createdAt: "desc" },
  });
  const encryption = deriveKey(secretKey, "signing-key-encryption");
  const active = new Map<SigningAlgorithm, ActiveKey>();
  for (const row of rows.filter((r) => r.supersededAt === null)) {
    const alg = row.algorithm as SigningAlgorithm;
    if (active.has(alg)) continue; // the newest wins if two processes created one at once
    active.set(alg, { kid: row.id, alg, privateKey: createPrivateKey(unseal(row.privateKeyEncrypted, encryption)) });
  }
  const jwks = { keys: rows.map((row) => JSON.parse(row.publicJwk) as JWK) };
  return { jwks, active, verify: createLocalJWKSet(jwks) };
}

export function getKeySet(db: Db, secretKey: string, now = new Date()): Promise<KeySet> {
  if (!cache.entry || now.getTime() - cache.entry.loadedAt > KEY_CACHE_SECONDS * 1000) {
    const keys = loadKeySet(db, secretKey, now);
    cache.entry = { loadedAt: now.getTime(), keys };
    keys.catch(() => (cache.entry = undefined));
  }
  return cache.entry.keys;
}

/** After a rotation in this process. */
export function forgetKeySet(): void {
  cache.entry = undefined;
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
export async function signingKeyFor(db: Db, secretKey: string, alg: SigningAlgorithm): Promise<ActiveKey> {
  const key = (await getKeySet(db, secretKey)).active.get(alg);
  if (key) return key;
  await ensureSigningKeys(db, [alg], secretKey);
  forgetKeySet();
  return activeKey(await getKeySet(db, secretKey), alg);
}
