/**
 * What OptiGate accepts as a partner's public keys: a JWK Set (RFC 7517 §5) of signing keys for the assertion
 * algorithms, given inline or as a `jwks_uri`. Shared by client registration (private_key_jwt), trusted issuer
 * registration and the fetch of remote key sets, so that a set is judged the same wherever it comes from.
 */
import { MAX_KEYS_IN_SET, MAX_KEY_SET_BYTES, MAX_URI_LENGTH } from "@/lib/config/policy";
import { createPublicKey } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import { isFetchableScheme } from "@/lib/http/url-policy";
import { nonPublicHostProblem } from "@/lib/http/public-address";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";

/** RFC 7518 / RFC 8037 algorithms OptiGate verifies assertions with; never `none`, never an HMAC. */
export const ASSERTION_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"] as const;

const KEY_TYPES = new Set(["RSA", "EC", "OKP"]);
/** The curves of the accepted algorithms: ES256 and EdDSA. */
const CURVES: Record<string, string[]> = { EC: ["P-256"], OKP: ["Ed25519", "Ed448"] };
const MIN_RSA_BITS = 2048;
/** Members only a private or symmetric key has. */
const SECRET_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** Why a parsed value is not an acceptable JWK Set of public signing keys, or null. */
function keySetProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return 'must be a JWK Set: an object with a "keys" array';
  const keys = (value as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return 'must be a JWK Set with at least one key in "keys"';
  if (keys.length > MAX_KEYS_IN_SET) return `may hold at most ${MAX_KEYS_IN_SET} keys`;
  for (const [index, key] of keys.entries()) {
    if (typeof key !== "object" || key === null || Array.isArray(key)) return `keys[${index}] must be a JWK object`;
    const jwk = key as Record<string, unknown>;
    if (typeof jwk.kty !== "string" || !KEY_TYPES.has(jwk.kty))
      return `keys[${index}] must be an RSA, EC or OKP public key`;
    const secret = SECRET_MEMBERS.find((member) => member in jwk);
    if (secret) return `keys[${index}] holds the private member "${secret}": register public keys only`;
    if (jwk.use !== undefined && jwk.use !== "sig")
      return `keys[${index}] is not a signing key (use "${String(jwk.use)}")`;
    if (jwk.alg !== undefined && !(ASSERTION_ALGORITHMS as readonly unknown[]).includes(jwk.alg)) {
      return `keys[${index}] has alg "${String(jwk.alg)}"; accepted: ${ASSERTION_ALGORITHMS.join(", ")}`;
    }
    if (jwk.kid !== undefined && (typeof jwk.kid !== "string" || jwk.kid.length > 200))
      return `keys[${index}].kid must be a string of at most 200 characters`;
    const unusable = keyProblem(jwk);
    if (unusable) return `keys[${index}] ${unusable}`;
  }
  if (JSON.stringify(value).length > MAX_KEY_SET_BYTES) return `must be at most ${MAX_KEY_SET_BYTES / 1024} KB`;
  return null;
}

/** Why a public JWK could never verify an assertion: a curve of no accepted algorithm, a short RSA key, no key at all. */
function keyProblem(jwk: Record<string, unknown>): string | null {
  const curves = CURVES[jwk.kty as string];
  if (curves && !curves.includes(jwk.crv as string))
    return `has curve "${String(jwk.crv)}"; accepted: ${curves.join(", ")}`;
  try {
    const key = createPublicKey({ key: jwk as never, format: "jwk" });
    if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS)
      return `is an RSA key of fewer than ${MIN_RSA_BITS} bits`;
  } catch {
    return "is not a valid public key";
  }
  return null;
}

export function parseKeySet(value: unknown): JSONWebKeySet {
  const problem = keySetProblem(value);
  if (problem) throw new Error(`the key set ${problem}`);
  return value as JSONWebKeySet;
}

/**
 * A key set URL (or an issuer): https, or outside production http on a loopback host, for development. Fetching
 * refuses http in production too (remote-key-sets.ts).
 */
export function keySetUrlProblem(value: string, production = false): string | null {
  if (!PRINTABLE_ASCII.test(value)) return "must be printable ASCII without spaces";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not an absolute URL";
  }
  if (url.username || url.password) return "must not contain credentials";
  if (url.hash) return "must not contain a fragment";
  if (isFetchableScheme(url, production)) return null;
  return production ? "must use https" : "must use https (http only on a loopback host, for development)";
}

/**
 * Registered keys: exactly one of an inline set and a set URL, each acceptable (in production, the URL on a public
 * host or one in `outboundAllow`). Throws an Error whose message says what is wrong (`missing` when neither or both
 * are given).
 */
export function readKeySource(
  jwks: unknown,
  jwksUri: unknown,
  missing: string,
  production = false,
  outboundAllow?: AddressRanges,
): { jwks: JSONWebKeySet | null; jwksUri: string | null } {
  if ((jwks === undefined) === (jwksUri === undefined)) throw new Error(missing);
  if (jwks !== undefined) {
    const problem = keySetProblem(jwks);
    if (problem) throw new Error(`jwks ${problem}`);
    return { jwks: jwks as JSONWebKeySet, jwksUri: null };
  }
  if (typeof jwksUri !== "string" || jwksUri.length > MAX_URI_LENGTH)
    throw new Error(`jwks_uri must be a URL of at most ${MAX_URI_LENGTH} characters`);
  const problem = keySetUrlProblem(jwksUri, production);
  if (problem) throw new Error(`jwks_uri "${jwksUri}" ${problem}`);
  // Production fetches from public addresses only (remote-key-sets.ts); what the text already shows is refused here.
  const internal = production ? nonPublicHostProblem(new URL(jwksUri).hostname, outboundAllow) : null;
  if (internal) throw new Error(`jwks_uri "${jwksUri}" must be a public address: ${internal}`);
  return { jwks: null, jwksUri };
}
