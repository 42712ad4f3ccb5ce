/**
 * The service's signing keys. One active key per algorithm OptiGate signs with (access tokens: TOKEN_SIGNING_ALG;
 * ID tokens: any of the three, per client, so discovery advertises all and each has a published key) is created by `npm run migrate` or the start script, or else by the first process that needs to sign. Rotation makes a new key active and keeps the old one published in the JWKS until
 * every token it signed has expired. Private keys are stored sealed with a key derived from SECRET_KEY.
 */
import { KEY_RETENTION_SECONDS } from "@/lib/config/policy";
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, type JWK } from "jose";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { deriveKey, seal } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/prisma";

export const SIGNING_ALGORITHMS = ["RS256", "ES256", "PS256"] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export const isSigningAlgorithm = (value: unknown): value is SigningAlgorithm =>
  SIGNING_ALGORITHMS.includes(value as SigningAlgorithm);

async function createKeyRow(alg: SigningAlgorithm, secretKey: string) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const jwk: JWK = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    id: kid,
    algorithm: alg,
    publicJwk: JSON.stringify({ ...jwk, kid, alg, use: "sig" }),
    privateKeyEncrypted: seal(await exportPKCS8(privateKey), deriveKey(secretKey, "signing-key-encryption")),
  };
}

/**
 * Creates the active key of each required algorithm that has none; returns the kids it created. Two processes that
 * start at once on a fresh database may each create one: then the newest stays active everywhere, and the other is
 * retired like a rotated key (published until what it signed has expired).
 */
export async function ensureSigningKeys(
  db: Db,
  algorithms: SigningAlgorithm[],
  secretKey: string,
  now = new Date(),
): Promise<string[]> {
  const created: string[] = [];
  for (const alg of algorithms) {
    const active = await db.signingKey.findFirst({
      where: { algorithm: alg, supersededAt: null },
      select: { id: true },
    });
    if (active) continue;
    const row = await createKeyRow(alg, secretKey);
    await db.signingKey.create({ data: { ...row, createdAt: now } });
    created.push(row.id);
    const [, ...others] = await db.signingKey.findMany({
      where: { algorithm: alg, supersededAt: null },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    if (others.length > 0) {
      await db.signingKey.updateMany({
        where: { id: { in: others.map((key) => key.id) }, supersededAt: null },
        data: { supersededAt: now, retiredAt: new Date(now.getTime() + KEY_RETENTION_SECONDS * 1000) },
      });
    }
  }
  return created;
}

/** Makes a new key active for `alg`; the previous one stays published for KEY_RETENTION_SECONDS. */
export async function rotateSigningKey(
  db: Db,
  alg: SigningAlgorithm,
  secretKey: string,
  now = new Date(),
): Promise<{ kid: string; retired: string[] }> {
  const row = await createKeyRow(alg, secretKey);
  return db.$transaction(async (tx) => {
    const previous = await tx.signingKey.findMany({
      where: { algorithm: alg, supersededAt: null },
      select: { id: true },
    });
    await tx.signingKey.updateMany({
      where: { algorithm: alg, supersededAt: null },
      data: { supersededAt: now, retiredAt: new Date(now.getTime() + KEY_RETENTION_SECONDS * 1000) },
    });
    await tx.signingKey.create({ data: { ...row, createdAt: now } });
    await recordAuditEvent(tx, {
      type: "signing_key.rotated",
      details: { algorithm: alg, kid: row.id, superseded: previous.map((k) => k.id) },
    });
    return { kid: row.id, retired: previous.map((k) => k.id) };
  });
}
