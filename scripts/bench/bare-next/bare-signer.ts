/**
 * The signing every baseline of the bench shares: an access token's claims and an ES256 or RS256 JWT signed with
 * node:crypto alone. The bare node:http endpoint (../baselines.ts) and the bare Next.js route handler of this app answer
 * with it, so that OptiGate is compared with servers that do nothing else.
 */
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { derToJoseSignature } from "@/lib/jwt/ecdsa-signature";

export const claims = () => {
  const iat = Math.floor(Date.now() / 1000);
  return {
    iss: "http://localhost",
    sub: "demo-backend",
    aud: "http://localhost/resources",
    client_id: "demo-backend",
    scope: "platform.catalogs.read",
    iat,
    exp: iat + 3600,
    jti: randomUUID(),
  };
};
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function nodeSigner(alg: "ES256" | "RS256") {
  const { privateKey } =
    alg === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048 });
  return () => {
    const input = `${encode({ alg, kid: "k", typ: "at+jwt" })}.${encode(claims())}`;
    // The fastest way Node.js has: a DER signature turned into r||s here, as OptiGate does.
    const der = sign("sha256", Buffer.from(input), privateKey);
    const signature = alg === "ES256" ? derToJoseSignature(der, 32) : der;
    return `${input}.${signature.toString("base64url")}`;
  };
}
