/**
 * Verification of JWTs that partners sign (client assertions, federated grants): the signature by a key of the
 * signer's set (inline, or from its jwks_uri, fetched again once when the `kid` is unknown), one of the assertion
 * algorithms, and the registered claims every such JWT needs. A failed check throws AssertionRefused naming it.
 */
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { ASSERTION_ALGORITHMS } from "@/lib/federation/key-set-rules";
import { KeySetUnavailable, remoteKeySet } from "@/lib/federation/remote-key-sets";

export const CLOCK_LEEWAY_SECONDS = 60;

export type KeySource = { jwks: JSONWebKeySet } | { jwksUri: string };

/** A check the JWT failed; the message names it, for the error description. */
export class AssertionRefused extends Error {}

const localSets = new WeakMap<JSONWebKeySet, ReturnType<typeof createLocalJWKSet>>();

function localSet(keys: JSONWebKeySet) {
  let set = localSets.get(keys);
  if (!set) {
    set = createLocalJWKSet(keys);
    localSets.set(keys, set);
  }
  return set;
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "it has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "its aud does not name OptiGate";
    if (error.claim === "nbf") return "it is not valid yet (nbf)";
    if (error.claim === "iat") return "it was issued in the future (iat)";
    return `its ${error.claim} claim is not acceptable (${error.reason})`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return `its alg is not accepted (accepted: ${ASSERTION_ALGORITHMS.join(", ")})`;
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the signer matches its kid and alg";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "its signature does not verify";
  if (error instanceof errors.JOSENotSupported) return "its alg or key type is not supported";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "it is not a well-formed signed JWT";
  throw error;
}

async function verifyWith(jwt: string, keys: JSONWebKeySet, audience: string[]) {
  return jwtVerify(jwt, localSet(keys), { algorithms: [...ASSERTION_ALGORITHMS], audience, clockTolerance: CLOCK_LEEWAY_SECONDS, requiredClaims: ["exp"] });
}

/** Verifies `jwt` with the signer's keys and the audience; returns its claims. */
export async function verifySignedJwt(jwt: string, source: KeySource, options: { audience: string[]; production: boolean }, now = Date.now()): Promise<JWTPayload> {
  try {
    if ("jwks" in source) return (await verifyWith(jwt, source.jwks, options.audience)).payload;
    const keys = await remoteKeySet(source.jwksUri, { production: options.production }, now);
    try {
      return (await verifyWith(jwt, keys, options.audience)).payload;
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      const fresh = await remoteKeySet(source.jwksUri, { production: options.production, stale: true }, now);
      return (await verifyWith(jwt, fresh, options.audience)).payload;
    }
  } catch (error) {
    if (error instanceof KeySetUnavailable) throw new AssertionRefused(`the signer's keys cannot be had: ${error.message}`);
    throw new AssertionRefused(describe(error));
  }
}

/** The JWT's claims read without verifying anything: only to find out who claims to have signed it. */
export function unverifiedClaims(jwt: string): JWTPayload {
  const parts = jwt.split(".");
  if (parts.length !== 3 || parts[1].length > 16_384) throw new AssertionRefused("it is not a well-formed signed JWT");
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    if (typeof claims !== "object" || claims === null || Array.isArray(claims)) throw new Error();
    return claims as JWTPayload;
  } catch {
    throw new AssertionRefused("it is not a well-formed signed JWT");
  }
}

/** `jti` present: the identifier under which a use is recorded. */
export function requireJti(claims: JWTPayload): string {
  if (typeof claims.jti !== "string" || claims.jti === "" || claims.jti.length > 256) throw new AssertionRefused("it has no jti (or one over 256 characters)");
  return claims.jti;
}
