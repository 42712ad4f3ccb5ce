/**
 * The signature of a partner's compact JWS (RFC 7515), checked with node:crypto against a JWK Set: the keys that
 * fit the header's `kid` and `alg` (key type and curve included) are tried in turn. node:crypto verifies ES256 at
 * about a third of the cost of jose's WebCrypto path, which the federation grants' speed depends on (as the token
 * endpoint's signing does, lib/oauth/keys/jwt-signer.ts).
 */
import { constants, createPublicKey, verify, type KeyObject } from "node:crypto";
import type { JSONWebKeySet, JWK } from "jose";
import { joseToDerSignature } from "@/lib/jwt/ecdsa-signature";

export type SignatureCheck = "verified" | "no-key" | "invalid";

/** What each algorithm needs of a key: its type, curve, and how node:crypto verifies with it. */
const ALGORITHMS: Record<
  string,
  { kty: string; crv?: string[]; verify: (input: Buffer, key: KeyObject, signature: Buffer) => boolean }
> = {
  RS256: { kty: "RSA", verify: (input, key, signature) => verify("sha256", input, key, signature) },
  PS256: {
    kty: "RSA",
    verify: (input, key, signature) =>
      verify("sha256", input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature),
  },
  ES256: {
    kty: "EC",
    crv: ["P-256"],
    verify: (input, key, signature) => {
      const der = joseToDerSignature(signature, 32);
      return der !== null && verify("sha256", input, key, der);
    },
  },
  EdDSA: {
    kty: "OKP",
    crv: ["Ed25519", "Ed448"],
    verify: (input, key, signature) => verify(null, input, key, signature),
  },
};
const MIN_RSA_BITS = 2048;

const imported = new WeakMap<JWK, KeyObject | null>();

/** The JWK as a public KeyObject, or null when it is none (malformed, or an RSA key under 2048 bits). */
export function importPublicKey(jwk: JWK): KeyObject | null {
  try {
    const key = createPublicKey({ key: jwk as never, format: "jwk" });
    return key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS
      ? null
      : key;
  } catch {
    return null;
  }
}

function publicKeyOf(jwk: JWK): KeyObject | null {
  let key = imported.get(jwk);
  if (key === undefined) imported.set(jwk, (key = importPublicKey(jwk)));
  return key;
}

/** Whether the JWK may check `alg` (one of ALGORITHMS): its type and curve, and its `alg`, `use` and `kid` if given. */
export function keyFits(jwk: JWK, alg: string, kid?: string): boolean {
  const rule = ALGORITHMS[alg];
  if (!rule || (kid !== undefined && jwk.kid !== kid)) return false;
  if (jwk.kty !== rule.kty || (rule.crv && !rule.crv.includes(jwk.crv ?? ""))) return false;
  return (jwk.alg === undefined || jwk.alg === alg) && (jwk.use === undefined || jwk.use === "sig");
}

/** Checks `signature` over `input` with one key that fits `alg` (keyFits). */
export const verifiesWith = (key: KeyObject, alg: string, input: string, signature: Buffer): boolean =>
  ALGORITHMS[alg].verify(Buffer.from(input), key, signature);

/** Checks `signature` over `input` with the keys of `keys` that fit `alg` (one of ALGORITHMS) and `kid`. */
export function checkSignature(
  input: string,
  signature: Buffer,
  alg: string,
  kid: string | undefined,
  keys: JSONWebKeySet,
): SignatureCheck {
  const rule = ALGORITHMS[alg];
  if (!rule) return "no-key";
  const candidates = keys.keys
    .filter((jwk) => keyFits(jwk, alg, kid))
    .map(publicKeyOf)
    .filter((key): key is KeyObject => key !== null);
  if (candidates.length === 0) return "no-key";
  const data = Buffer.from(input);
  return candidates.some((key) => rule.verify(data, key, signature)) ? "verified" : "invalid";
}
