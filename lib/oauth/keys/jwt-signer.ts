/**
 * Signs compact JWTs with node:crypto. The profile of the token endpoint showed jose's WebCrypto path (an async sign
 * per token, with the key handed across threads) as its largest cost; node:crypto signs the same RS256 / ES256 JWS
 * synchronously at a fraction of it. Verification stays with jose.
 */
import { constants, sign, type KeyObject } from "node:crypto";
import type { SigningAlgorithm } from "@/lib/store/models/signing-key";
import { derToJoseSignature } from "@/lib/jwt/ecdsa-signature";

// JWS (RFC 7518 §3.4) wants ECDSA signatures as r||s, not DER; PS256 (§3.5) is PSS with a salt as long as the hash.
function signature(alg: SigningAlgorithm, key: KeyObject, input: Buffer): Buffer {
  if (alg === "ES256") return derToJoseSignature(sign("sha256", input, key), 32);
  if (alg === "PS256") return sign("sha256", input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
  return sign("sha256", input, key);
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function signJwt(
  claims: Record<string, unknown>,
  key: { kid: string; alg: SigningAlgorithm; privateKey: KeyObject },
  typ: string,
): string {
  const input = `${encode({ alg: key.alg, kid: key.kid, typ })}.${encode(claims)}`;
  return `${input}.${signature(key.alg, key.privateKey, Buffer.from(input)).toString("base64url")}`;
}
