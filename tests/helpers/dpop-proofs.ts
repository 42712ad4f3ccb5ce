/**
 * DPoP proofs made with jose, good or broken on purpose: a key pair per algorithm and a proof maker whose header and
 * claims a test may change or drop (`undefined` removes a field).
 */
import { randomUUID } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

export interface ProofKey {
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  privateJwk: JWK;
  jkt: string;
}

export async function proofKey(alg = "ES256"): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return {
    alg,
    privateKey,
    publicJwk,
    privateJwk: await exportJWK(privateKey),
    jkt: await calculateJwkThumbprint(publicJwk),
  };
}

type Fields = Record<string, unknown>;

/** A proof for `method` `url`; `claims` and `header` replace (or, with undefined, remove) the usual fields. */
export async function dpopProof(
  key: ProofKey,
  method: string,
  url: string,
  { claims = {}, header = {} }: { claims?: Fields; header?: Fields } = {},
): Promise<string> {
  const payload = { jti: randomUUID(), htm: method, htu: url, iat: Math.floor(Date.now() / 1000), ...claims };
  const protectedHeader = { typ: "dpop+jwt", alg: key.alg, jwk: key.publicJwk, ...header };
  const defined = (fields: Fields) =>
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return new SignJWT(defined(payload))
    .setProtectedHeader(defined(protectedHeader) as { alg: string })
    .sign(key.privateKey);
}
