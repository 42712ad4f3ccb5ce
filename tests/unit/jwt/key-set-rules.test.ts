/** What OptiGate accepts as a partner's public signing keys, inline or as a URL, judged the same wherever given. */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keySetUrlProblem, parseKeySet, readKeySource } from "@/lib/jwt/key-set-rules";

type KeyType = "rsa" | "ec" | "ed25519" | "ed448" | "x25519";
// One signature for the overloads node:crypto declares per key type.
const generate = generateKeyPairSync as (type: KeyType, options?: object) => { publicKey: KeyObject };
const jwkOf = (key: KeyObject) => key.export({ format: "jwk" }) as Record<string, unknown>;
const publicJwk = (type: KeyType, options: object = {}) => jwkOf(generate(type, options).publicKey);

const rsa = publicJwk("rsa", { modulusLength: 2048 });
const ec = publicJwk("ec", { namedCurve: "P-256" });
const ed25519 = publicJwk("ed25519");
const ed448 = publicJwk("ed448");
const ecPrivate = jwkOf(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey);
const set = (...keys: unknown[]) => ({ keys });

describe("parseKeySet: accepted sets", () => {
  it.each([
    ["an RSA key of 2048 bits", set({ ...rsa, alg: "RS256", use: "sig", kid: "r1" })],
    ["an RSA key for PS256", set({ ...rsa, alg: "PS256" })],
    ["a P-256 key", set({ ...ec, alg: "ES256" })],
    ["an Ed25519 key", set({ ...ed25519, alg: "EdDSA" })],
    ["an Ed448 key", set(ed448)],
    ["20 keys", set(...Array.from({ length: 20 }, (_, index) => ({ ...ec, kid: `k${index}` })))],
    ["a kid of 200 characters", set({ ...ec, kid: "k".repeat(200) })],
  ])("%s", (_, value) => {
    expect(parseKeySet(value)).toBe(value);
  });
});

describe("parseKeySet: refusals", () => {
  it.each([
    ["a string", "keys", 'must be a JWK Set: an object with a "keys" array'],
    ["null", null, 'must be a JWK Set: an object with a "keys" array'],
    ["an array", [ec], 'must be a JWK Set: an object with a "keys" array'],
    ["no keys member", {}, 'must be a JWK Set with at least one key in "keys"'],
    ["keys that are no array", { keys: ec }, 'must be a JWK Set with at least one key in "keys"'],
    ["no key", set(), 'must be a JWK Set with at least one key in "keys"'],
    ["21 keys", set(...Array.from({ length: 21 }, () => ec)), "may hold at most 20 keys"],
    ["a key that is null", set(ec, null), "keys[1] must be a JWK object"],
    ["a key that is an array", set([ec]), "keys[0] must be a JWK object"],
    ["a key without kty", set({ ...ec, kty: undefined }), "keys[0] must be an RSA, EC or OKP public key"],
    ["a symmetric key", set({ kty: "oct", k: "c2VjcmV0" }), "keys[0] must be an RSA, EC or OKP public key"],
    ["a private key", set(ecPrivate), 'keys[0] holds the private member "d": register public keys only'],
    [
      "an RSA key with a prime",
      set({ ...rsa, p: "AQAB" }),
      'keys[0] holds the private member "p": register public keys only',
    ],
    [
      "a key with a symmetric member",
      set({ ...ec, k: "c2VjcmV0" }),
      'keys[0] holds the private member "k": register public keys only',
    ],
    ["an encryption key", set({ ...ec, use: "enc" }), 'keys[0] is not a signing key (use "enc")'],
    [
      "an HMAC algorithm",
      set({ ...ec, alg: "HS256" }),
      'keys[0] has alg "HS256"; accepted: RS256, PS256, ES256, EdDSA',
    ],
    ["alg none", set({ ...ec, alg: "none" }), 'keys[0] has alg "none"; accepted: RS256, PS256, ES256, EdDSA'],
    ["a kid that is a number", set({ ...ec, kid: 7 }), "keys[0].kid must be a string of at most 200 characters"],
    [
      "a kid of 201 characters",
      set({ ...ec, kid: "k".repeat(201) }),
      "keys[0].kid must be a string of at most 200 characters",
    ],
    ["a P-384 key", set(publicJwk("ec", { namedCurve: "P-384" })), 'keys[0] has curve "P-384"; accepted: P-256'],
    ["an X25519 key", set(publicJwk("x25519")), 'keys[0] has curve "X25519"; accepted: Ed25519, Ed448'],
    [
      "an RSA key of 1024 bits",
      set(publicJwk("rsa", { modulusLength: 1024 })),
      "keys[0] is an RSA key of fewer than 2048 bits",
    ],
    ["an EC key off its curve", set({ ...ec, x: ec.y }), "keys[0] is not a valid public key"],
    ["an RSA key without modulus", set({ ...rsa, n: undefined }), "keys[0] is not a valid public key"],
    ["a set of more than 64 KB", set({ ...ec, note: "x".repeat(64 * 1024) }), "must be at most 64 KB"],
  ])("%s", (_, value, problem) => {
    expect(() => parseKeySet(value)).toThrow(new Error(`the key set ${problem}`));
  });
});

describe("keySetUrlProblem", () => {
  it.each([
    ["https://idp.example/jwks", false, null],
    ["https://idp.example/jwks", true, null],
    ["https://idp.example:8443/jwks?v=2", true, null],
    ["http://localhost:4000/jwks", false, null],
    ["http://127.0.0.1/jwks", false, null],
    ["http://[::1]/jwks", false, null],
    ["http://localhost:4000/jwks", true, "must use https"],
    ["http://idp.example/jwks", false, "must use https (http only on a loopback host, for development)"],
    ["http://idp.example/jwks", true, "must use https"],
    ["ftp://idp.example/jwks", false, "must use https (http only on a loopback host, for development)"],
    ["", false, "must be printable ASCII without spaces"],
    ["https://idp.example/my jwks", false, "must be printable ASCII without spaces"],
    ["https://idp.example/jwks\n", false, "must be printable ASCII without spaces"],
    ["https://idp.exämple/jwks", false, "must be printable ASCII without spaces"],
    ["/jwks", false, "is not an absolute URL"],
    ["https://", false, "is not an absolute URL"],
    ["https://user:secret@idp.example/jwks", false, "must not contain credentials"],
    ["https://user@idp.example/jwks", false, "must not contain credentials"],
    ["https://idp.example/jwks#keys", false, "must not contain a fragment"],
  ])("%s (production: %s): %s", (url, production, problem) => {
    expect(keySetUrlProblem(url, production)).toBe(problem);
  });
});

describe("readKeySource", () => {
  const missing = "give the keys as either jwks_uri or jwks";
  const inline = set(ec);

  it.each([
    ["an inline set", inline, undefined, false, { jwks: inline, jwksUri: null }],
    ["a set URL", undefined, "https://idp.example/jwks", false, { jwks: null, jwksUri: "https://idp.example/jwks" }],
    [
      "a public set URL in production",
      undefined,
      "https://idp.example/jwks",
      true,
      { jwks: null, jwksUri: "https://idp.example/jwks" },
    ],
    [
      "a loopback set URL outside production",
      undefined,
      "http://localhost:4000/jwks",
      false,
      { jwks: null, jwksUri: "http://localhost:4000/jwks" },
    ],
    [
      "a set URL of 2000 characters",
      undefined,
      `https://idp.example/${"x".repeat(1980)}`,
      false,
      { jwks: null, jwksUri: `https://idp.example/${"x".repeat(1980)}` },
    ],
    // Outside production fetching is not limited to public hosts (remote-key-sets.ts).
    [
      "a private set URL outside production",
      undefined,
      "https://10.1.2.3/jwks",
      false,
      { jwks: null, jwksUri: "https://10.1.2.3/jwks" },
    ],
  ])("accepts %s", (_, jwks, jwksUri, production, source) => {
    expect(readKeySource(jwks, jwksUri, missing, production)).toEqual(source);
  });

  it.each([
    ["neither", undefined, undefined, false, missing],
    ["both", inline, "https://idp.example/jwks", false, missing],
    ["a bad inline set", set(), undefined, false, 'jwks must be a JWK Set with at least one key in "keys"'],
    ["a set URL that is no string", undefined, 42, false, "jwks_uri must be a URL of at most 2000 characters"],
    [
      "a set URL of 2001 characters",
      undefined,
      `https://idp.example/${"x".repeat(1981)}`,
      false,
      "jwks_uri must be a URL of at most 2000 characters",
    ],
    [
      "an http set URL",
      undefined,
      "http://idp.example/jwks",
      false,
      'jwks_uri "http://idp.example/jwks" must use https (http only on a loopback host, for development)',
    ],
    [
      "an http set URL in production",
      undefined,
      "http://localhost/jwks",
      true,
      'jwks_uri "http://localhost/jwks" must use https',
    ],
    [
      "a loopback name in production",
      undefined,
      "https://localhost/jwks",
      true,
      'jwks_uri "https://localhost/jwks" must be a public address: localhost is a loopback name',
    ],
    [
      "a private address in production",
      undefined,
      "https://10.1.2.3/jwks",
      true,
      'jwks_uri "https://10.1.2.3/jwks" must be a public address: 10.1.2.3 is private (RFC 1918)',
    ],
    [
      "a link-local address in production",
      undefined,
      "https://169.254.169.254/jwks",
      true,
      'jwks_uri "https://169.254.169.254/jwks" must be a public address: 169.254.169.254 is link-local',
    ],
  ])("refuses %s", (_, jwks, jwksUri, production, message) => {
    expect(() => readKeySource(jwks, jwksUri, missing, production)).toThrow(new Error(message));
  });
});
