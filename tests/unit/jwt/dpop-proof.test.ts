import { generateKeyPairSync, sign } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { dpopAccessTokenHash, jwkThumbprint, verifyDpopProof } from "@/lib/jwt/dpop-proof";
import { dpopProof, proofKey } from "../../helpers/dpop-proofs";

const URL_ = "https://id.example.com/connect/token";

describe("jwkThumbprint", () => {
  it("is the RFC 7638 §3.1 example's thumbprint", () => {
    const jwk = {
      kty: "RSA",
      n: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
      e: "AQAB",
      alg: "RS256",
      kid: "2011-04-29",
    };
    expect(jwkThumbprint(jwk)).toBe("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
  });

  it.each(["ES256", "EdDSA", "RS256", "PS256"])("agrees with jose for a %s key", async (alg) => {
    const { publicKey } = await generateKeyPair(alg, { extractable: true });
    const jwk = await exportJWK(publicKey);
    expect(jwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk));
  });

  it("is undefined for a symmetric key or a key missing a member", () => {
    expect(jwkThumbprint({ kty: "oct", k: "c2VjcmV0" })).toBeUndefined();
    expect(jwkThumbprint({ kty: "EC", crv: "P-256", x: "AAAA" })).toBeUndefined();
  });
});

describe("verifyDpopProof", () => {
  it("returns the key's thumbprint, the jti and iat of a good proof", async () => {
    const key = await proofKey();
    const proven = verifyDpopProof(await dpopProof(key, "POST", URL_, { claims: { jti: "one" } }), {
      method: "POST",
      url: URL_,
    });
    expect(proven).toMatchObject({ jkt: key.jkt, jti: "one" });
  });

  it("takes iat exactly at the window's edges and refuses it a second beyond", async () => {
    const key = await proofKey();
    const now = new Date("2026-11-25T12:00:00Z");
    const at = (offset: number) =>
      dpopProof(key, "GET", URL_, { claims: { iat: now.getTime() / 1000 + offset } }).then((proof) =>
        verifyDpopProof(proof, { method: "GET", url: URL_, now }),
      );
    await expect(at(60)).resolves.toBeDefined();
    await expect(at(-60)).resolves.toBeDefined();
    await expect(at(61)).rejects.toThrow(/iat/);
    await expect(at(-61)).rejects.toThrow(/iat/);
  });

  it("checks ath against the access token", async () => {
    const key = await proofKey();
    const proof = await dpopProof(key, "GET", URL_, { claims: { ath: dpopAccessTokenHash("token-a") } });
    expect(verifyDpopProof(proof, { method: "GET", url: URL_, accessToken: "token-a" }).jkt).toBe(key.jkt);
    expect(() => verifyDpopProof(proof, { method: "GET", url: URL_, accessToken: "token-b" })).toThrow(/ath/);
    const without = await dpopProof(key, "GET", URL_);
    expect(() => verifyDpopProof(without, { method: "GET", url: URL_, accessToken: "token-a" })).toThrow(/ath/);
  });

  it("refuses an RSA key under 2048 bits and a jwk whose alg differs from the header's", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const header = encode({ typ: "dpop+jwt", alg: "RS256", jwk: publicKey.export({ format: "jwk" }) });
    const input = `${header}.${encode({ jti: "x", htm: "GET", htu: URL_, iat: Math.floor(Date.now() / 1000) })}`;
    const small = `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
    expect(() => verifyDpopProof(small, { method: "GET", url: URL_ })).toThrow(/does not verify/);
    const key = await proofKey("ES256");
    const mislabelled = await dpopProof(key, "GET", URL_, { header: { jwk: { ...key.publicJwk, alg: "ES384" } } });
    expect(() => verifyDpopProof(mislabelled, { method: "GET", url: URL_ })).toThrow(/does not verify/);
  });
});
