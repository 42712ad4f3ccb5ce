/**
 * The service's signing keys (`signing_keys`), private keys sealed with a key derived from SECRET_KEY. The keys in use
 * are cached per process for a short while so that token requests do not read them from the database; a rotation by
 * another process (the CLI) is picked up within KEY_CACHE_SECONDS. The old key stays published for much longer than
 * that (KEY_RETENTION_SECONDS), so tokens signed by a process that has not noticed the rotation yet still verify.
 */
import { KEY_CACHE_SECONDS, KEY_RETENTION_SECONDS } from "@/lib/config/policy";
import { createPrivateKey, type KeyObject } from "node:crypto";
import { createLocalJWKSet, type JSONWebKeySet, type JWK } from "jose";
import { processCache } from "@/lib/observability/process-cache";
import { unseal } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/prisma";
import type { SigningAlgorithm } from "@/lib/store/models/signing-key";
import { recordAuditEvent } from "@/lib/store/audit-store";

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

/** A new key as stored: its kid, public JWK (JSON) and sealed PKCS#8 private key. */
export interface NewSigningKey {
  id: string;
  algorithm: SigningAlgorithm;
  publicJwk: string;
  privateKeyEncrypted: string;
}

export interface SigningKeyStore {
  /** The published keys and the active one of each algorithm, private keys unsealed; cached for KEY_CACHE_SECONDS. */
  keySet(secretKey: string, now?: Date): Promise<KeySet>;
  hasActive(alg: SigningAlgorithm): Promise<boolean>;
  /**
   * Stores a first active key for its algorithm. Two processes that start at once on a fresh database may each store
   * one: then the newest stays active everywhere, and the other is retired like a rotated key.
   */
  save(key: NewSigningKey, now: Date): Promise<void>;
  /** Makes `key` the active one of its algorithm with its audit event; returns the kids it supersedes. */
  rotateIn(key: NewSigningKey, now: Date, by?: string): Promise<string[]>;
  /**
   * Ends the publication of a superseded key now, with its audit event: it leaves the key set, and tokens it signed
   * no longer verify. The active key is never retired; what happened is the answer.
   */
  retire(kid: string, now: Date, by?: string): Promise<KeyRetirement>;
  /** Every key, oldest first, without its private part: for the operator's list. */
  list(): Promise<SigningKeySummary[]>;
}

type KeyRetirement = "retired" | "not_found" | "active" | "already_retired";

interface SigningKeySummary {
  id: string;
  algorithm: string;
  createdAt: Date;
  supersededAt: Date | null;
  retiredAt: Date | null;
}

/** A stored key as the key set is built from it. */
export interface StoredSigningKey extends NewSigningKey {
  createdAt: Date;
  supersededAt: Date | null;
  retiredAt: Date | null;
}

const cache = processCache("signingKeys", () => ({
  entry: undefined as { loadedAt: number; keys: Promise<KeySet> } | undefined,
}));

export const retirement = (now: Date) => ({
  supersededAt: now,
  retiredAt: new Date(now.getTime() + KEY_RETENTION_SECONDS * 1000),
});

async function loadKeySet(db: Db, secretKey: string, now: Date): Promise<KeySet> {
  const rows = await db.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: now } }] },
    orderBy: { createdAt: "desc" },
  });
  return keySetOf(rows as StoredSigningKey[], secretKey);
}

/** The key set of the unretired keys, newest first. */
export function keySetOf(rows: StoredSigningKey[], secretKey: string): KeySet {
  const active = new Map<SigningAlgorithm, ActiveKey>();
  for (const row of rows.filter((r) => r.supersededAt === null)) {
    const alg = row.algorithm as SigningAlgorithm;
    if (active.has(alg)) continue; // the newest wins if two processes created one at once
    active.set(alg, {
      kid: row.id,
      alg,
      privateKey: createPrivateKey(unseal(row.privateKeyEncrypted, secretKey, "signing-key-encryption")),
    });
  }
  const jwks = { keys: rows.map((row) => JSON.parse(row.publicJwk) as JWK) };
  return { jwks, active, verify: createLocalJWKSet(jwks) };
}

function getKeySet(db: Db, secretKey: string, now = new Date()): Promise<KeySet> {
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

async function storeSigningKey(db: Db, key: NewSigningKey, now: Date): Promise<void> {
  await db.signingKey.create({ data: { ...key, createdAt: now } });
  const [, ...others] = await db.signingKey.findMany({
    where: { algorithm: key.algorithm, supersededAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  if (others.length > 0) {
    await db.signingKey.updateMany({
      where: { id: { in: others.map((other) => other.id) }, supersededAt: null },
      data: retirement(now),
    });
  }
}

/** In one transaction with its audit event; the keys it supersedes stay published for KEY_RETENTION_SECONDS. */
function rotateInSigningKey(db: Db, key: NewSigningKey, now: Date, by?: string): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const previous = await tx.signingKey.findMany({
      where: { algorithm: key.algorithm, supersededAt: null },
      select: { id: true },
    });
    await tx.signingKey.updateMany({ where: { algorithm: key.algorithm, supersededAt: null }, data: retirement(now) });
    await tx.signingKey.create({ data: { ...key, createdAt: now } });
    const superseded = previous.map((k) => k.id);
    await recordAuditEvent(tx, {
      type: "signing_key.rotated",
      userId: by,
      details: { algorithm: key.algorithm, kid: key.id, superseded },
    });
    return superseded;
  });
}

/** A conditional update on the still-published, superseded key, so that two retirements at once record one event. */
function retireSigningKey(db: Db, kid: string, now: Date, by?: string): Promise<KeyRetirement> {
  return db.$transaction(async (tx) => {
    const key = await tx.signingKey.findUnique({
      where: { id: kid },
      select: { algorithm: true, supersededAt: true, retiredAt: true },
    });
    if (!key) return "not_found";
    if (key.supersededAt === null) return "active";
    if (key.retiredAt !== null && key.retiredAt <= now) return "already_retired";
    // Only while the key is as it was read: of two retirements at once, the second finds it changed.
    const { count } = await tx.signingKey.updateMany({
      where: { id: kid, supersededAt: { not: null }, retiredAt: key.retiredAt },
      data: { retiredAt: now },
    });
    if (count === 0) return "already_retired";
    await recordAuditEvent(tx, { type: "signing_key.retired", userId: by, details: { algorithm: key.algorithm, kid } });
    return "retired";
  });
}

export function prismaSigningKeyStore(db: Db): SigningKeyStore {
  return {
    keySet: (secretKey, now) => getKeySet(db, secretKey, now),
    async hasActive(alg) {
      const active = await db.signingKey.findFirst({
        where: { algorithm: alg, supersededAt: null },
        select: { id: true },
      });
      return active !== null;
    },
    save: (key, now) => storeSigningKey(db, key, now),
    rotateIn: (key, now, by) => rotateInSigningKey(db, key, now, by),
    retire: (kid, now, by) => retireSigningKey(db, kid, now, by),
    list: () =>
      db.signingKey.findMany({
        orderBy: { createdAt: "asc" },
        select: { id: true, algorithm: true, createdAt: true, supersededAt: true, retiredAt: true },
      }),
  };
}
