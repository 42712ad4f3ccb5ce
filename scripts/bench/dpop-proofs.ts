/**
 * DPoP proofs for the bench's load generator: one P-256 key per run and a fresh proof (new jti, current iat) per
 * request, signed with node:crypto so that making them costs the generator's core little.
 */
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A maker of proofs for POST requests to `htu`. */
export function dpopProofMaker(htu: string): () => string {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { kty, crv, x, y } = publicKey.export({ format: "jwk" });
  const header = encode({ typ: "dpop+jwt", alg: "ES256", jwk: { kty, crv, x, y } });
  return () => {
    const input = `${header}.${encode({ jti: randomUUID(), htm: "POST", htu, iat: Math.floor(Date.now() / 1000) })}`;
    const signature = sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" });
    return `${input}.${signature.toString("base64url")}`;
  };
}
