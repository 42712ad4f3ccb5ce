/**
 * DPoP proofs (RFC 9449 §4.3): the checks a proof passes before anything is written. One `DPoP` header of at most
 * MAX_DPOP_PROOF_LENGTH, a compact JWS typed `dpop+jwt`, signed with an asymmetric algorithm OptiGate accepts by the
 * public key in its own `jwk` header (never a private one), naming this request's method (`htm`) and URL (`htu`,
 * without query and fragment, scheme and host compared normalized), an `iat` within DPOP_PROOF_WINDOW_SECONDS of the
 * clock either way, a `jti`, and, where an access token comes with it, `ath` (its SHA-256). The caller checks the
 * nonce and records the jti (lib/oauth/dpop/).
 */
import { createHash } from "node:crypto";
import type { JWK } from "jose";
import { DPOP_PROOF_WINDOW_SECONDS, MAX_DPOP_PROOF_LENGTH } from "@/lib/config/policy";
import { invalidDpopProof } from "@/lib/errors/oauth-error";
import { importPublicKey, keyFits, verifiesWith } from "@/lib/jwt/jws-signature";
import type { KeyObject } from "node:crypto";
import { parseJws } from "@/lib/jwt/signed-jwt";

export const DPOP_ALGORITHMS = ["ES256", "EdDSA", "RS256", "PS256"] as const;

/** RFC 7638 §3.2: the members of each key type that its thumbprint covers, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = {
  EC: ["crv", "kty", "x", "y"],
  OKP: ["crv", "kty", "x"],
  RSA: ["e", "kty", "n"],
};
/**
 * Imported proof keys by thumbprint (the thumbprint covers all of a public key): a client signs proof after proof
 * with one key, and importing a JWK costs more than checking an ES256 signature.
 */
const importedKeys = new Map<string, KeyObject | null>();
const MAX_IMPORTED_KEYS = 1000;

function importedKey(jwk: JWK, jkt: string): KeyObject | null {
  let key = importedKeys.get(jkt);
  if (key === undefined) {
    if (importedKeys.size >= MAX_IMPORTED_KEYS) importedKeys.delete(importedKeys.keys().next().value!);
    importedKeys.set(jkt, (key = importPublicKey(jwk)));
  }
  return key;
}

/** Members only a private (or symmetric) key has. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

export interface DpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key, base64url: what tokens are bound to (`cnf.jkt`). */
  jkt: string;
  jti: string;
  iat: number;
  nonce?: string;
}

export interface ProofExpectation {
  method: string;
  /** The URL the request was sent to, on the public origin. */
  url: string;
  /** With a request to a protected resource: the access token, which `ath` must hash. */
  accessToken?: string;
  now?: Date;
}

/** RFC 7638: the JWK's SHA-256 thumbprint, base64url; undefined for a key type OptiGate does not accept. */
export function jwkThumbprint(jwk: JWK): string | undefined {
  const kty = jwk.kty;
  if (typeof kty !== "string" || !Object.hasOwn(THUMBPRINT_MEMBERS, kty)) return undefined;
  const members = THUMBPRINT_MEMBERS[kty];
  if (members.some((name) => typeof jwk[name as keyof JWK] !== "string")) return undefined;
  const canonical = JSON.stringify(Object.fromEntries(members.map((name) => [name, jwk[name as keyof JWK]])));
  return createHash("sha256").update(canonical).digest("base64url");
}

/** Scheme, host and path, normalized; undefined when `value` is no absolute URL. */
function withoutQuery(value: string): string | undefined {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return undefined;
  }
}

export const dpopAccessTokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");

/** The proof's key, as a public JWK. */
function proofKey(header: Record<string, unknown>): { jwk: JWK; jkt: string } {
  const jwk = header.jwk;
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk))
    throw invalidDpopProof("the proof's header must carry its public key as a JWK (jwk)");
  if (PRIVATE_MEMBERS.some((name) => name in jwk))
    throw invalidDpopProof("the proof's jwk must be a public key: never send the private key");
  const jkt = jwkThumbprint(jwk as JWK);
  if (!jkt) throw invalidDpopProof("the proof's jwk is not an EC, OKP or RSA public key");
  return { jwk: jwk as JWK, jkt };
}

function checkClaims(claims: Record<string, unknown>, expected: ProofExpectation): { jti: string; iat: number } {
  const { jti, htm, htu, iat, ath } = claims;
  if (typeof jti !== "string" || jti === "" || jti.length > 256)
    throw invalidDpopProof("the proof needs a jti of at most 256 characters");
  if (htm !== expected.method) throw invalidDpopProof(`the proof's htm must be ${expected.method}`);
  if (typeof htu !== "string" || withoutQuery(htu) !== withoutQuery(expected.url))
    throw invalidDpopProof(`the proof's htu must be ${withoutQuery(expected.url)}`);
  const now = Math.floor((expected.now?.getTime() ?? Date.now()) / 1000);
  if (typeof iat !== "number" || !Number.isFinite(iat)) throw invalidDpopProof("the proof needs an iat");
  if (Math.abs(iat - now) > DPOP_PROOF_WINDOW_SECONDS)
    throw invalidDpopProof(`the proof's iat must be within ${DPOP_PROOF_WINDOW_SECONDS} s of the server's clock`);
  if (expected.accessToken !== undefined) {
    if (typeof ath !== "string") throw invalidDpopProof("the proof must carry ath, the hash of the access token");
    if (ath !== dpopAccessTokenHash(expected.accessToken))
      throw invalidDpopProof("the proof's ath does not match the access token");
  }
  return { jti, iat };
}

/** Verifies the DPoP header's proof for this request; throws invalid_dpop_proof on any failed check. */
export function verifyDpopProof(proof: string, expected: ProofExpectation): DpopProof {
  if (proof.length > MAX_DPOP_PROOF_LENGTH)
    throw invalidDpopProof(`the DPoP proof is longer than ${MAX_DPOP_PROOF_LENGTH} characters`);
  // Repeated headers arrive joined by ", "; a compact JWS has neither.
  if (/[,\s]/.test(proof)) throw invalidDpopProof("send exactly one DPoP header");
  let jws;
  try {
    jws = parseJws(proof);
  } catch {
    throw invalidDpopProof("the DPoP proof is not a well-formed signed JWT");
  }
  const { header, claims, input, signature } = jws;
  const fields = header as Record<string, unknown>;
  if (fields.typ !== "dpop+jwt") throw invalidDpopProof("the proof's typ must be dpop+jwt");
  const alg = fields.alg;
  if (typeof alg !== "string" || !(DPOP_ALGORITHMS as readonly string[]).includes(alg))
    throw invalidDpopProof(`the proof's alg must be one of ${DPOP_ALGORITHMS.join(", ")}`);
  if (fields.crit !== undefined) throw invalidDpopProof("the proof names critical extensions (crit)");
  const { jwk, jkt } = proofKey(fields);
  const key = keyFits(jwk, alg) ? importedKey(jwk, jkt) : null;
  if (!key || !verifiesWith(key, alg, input, signature))
    throw invalidDpopProof(`the proof's signature does not verify with its jwk and alg ${alg}`);
  const { jti, iat } = checkClaims(claims as Record<string, unknown>, expected);
  return { jkt, jti, iat, nonce: typeof claims.nonce === "string" ? claims.nonce : undefined };
}
