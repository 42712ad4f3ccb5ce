/**
 * Verification of JWTs that partners sign (client assertions, federated grants): the signature by a key of the
 * signer's set (inline, or from its jwks_uri, fetched again once when no key fits), one of the assertion algorithms,
 * and the registered claims every such JWT needs: `exp` (a minute's leeway), `nbf`, and `aud` naming OptiGate.
 * A failed check throws AssertionRefused naming it.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { CLOCK_LEEWAY_SECONDS, MAX_JWT_LENGTH } from "@/lib/config/policy";
import type { JSONWebKeySet, JWTPayload } from "jose";
import { checkSignature } from "@/lib/jwt/jws-signature";
import { ASSERTION_ALGORITHMS } from "@/lib/jwt/key-set-rules";
import { KeySetUnavailable, remoteKeySet } from "@/lib/jwt/remote-key-sets";
import type { KeySource } from "@/lib/store/models/trusted-issuer";
import type { AddressRanges } from "@/lib/config/address-ranges";

/** A check the JWT failed; the message names it, for the error description. */
export class AssertionRefused extends OptiGateError<"assertion_refused"> {
  readonly code = "assertion_refused";
}

interface Jws {
  header: { alg?: unknown; kid?: unknown; crit?: unknown };
  claims: JWTPayload;
  input: string;
  signature: Buffer;
}

function part(text: string): Record<string, unknown> {
  const json = Buffer.from(text, "base64url").toString("utf8");
  // No name, id or address holds U+0000, and PostgreSQL could not look one up (lib/http/nul-character.ts).
  if (/\\u0000/i.test(json) || json.includes("\u0000")) throw new Error("NUL");
  const value: unknown = JSON.parse(json);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
  return value as Record<string, unknown>;
}

/** The compact JWS's parts, nothing verified. */
export function parseJws(jwt: string): Jws {
  const parts = jwt.split(".");
  if (jwt.length > MAX_JWT_LENGTH || parts.length !== 3 || parts.some((segment) => !/^[\w-]*$/.test(segment)))
    throw new AssertionRefused("it is not a well-formed signed JWT");
  try {
    return {
      header: part(parts[0]),
      claims: part(parts[1]) as JWTPayload,
      input: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2], "base64url"),
    };
  } catch {
    throw new AssertionRefused("it is not a well-formed signed JWT");
  }
}

/** The JWT's claims read without verifying anything: only to find out who claims to have signed it. */
export function unverifiedClaims(jwt: string): JWTPayload {
  return parseJws(jwt).claims;
}

function checkClaims(claims: JWTPayload, audience: string[], nowSeconds: number): void {
  if (typeof claims.exp !== "number") throw new AssertionRefused("it has no exp");
  if (claims.exp <= nowSeconds - CLOCK_LEEWAY_SECONDS) throw new AssertionRefused("it has expired");
  if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf > nowSeconds + CLOCK_LEEWAY_SECONDS))
    throw new AssertionRefused("it is not valid yet (nbf)");
  const named = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!named.some((value) => typeof value === "string" && audience.includes(value)))
    throw new AssertionRefused("its aud does not name OptiGate");
}

/** Verifies `jwt` with the signer's keys, then its claims; returns them. */
export async function verifySignedJwt(
  jwt: string,
  source: KeySource,
  options: { audience: string[]; production: boolean; outboundAllow: AddressRanges },
  now = Date.now(),
): Promise<JWTPayload> {
  const { header, claims, input, signature } = parseJws(jwt);
  if (typeof header.alg !== "string" || !(ASSERTION_ALGORITHMS as readonly string[]).includes(header.alg))
    throw new AssertionRefused(`its alg is not accepted (accepted: ${ASSERTION_ALGORITHMS.join(", ")})`);
  // RFC 7515 §4.1.11: extensions the recipient does not understand make the JWS invalid; OptiGate knows none.
  if (header.crit !== undefined)
    throw new AssertionRefused("it names critical header extensions OptiGate does not know (crit)");
  if (header.kid !== undefined && typeof header.kid !== "string") throw new AssertionRefused("its kid is not a string");
  const check = (keys: JSONWebKeySet) =>
    checkSignature(input, signature, header.alg as string, header.kid as string | undefined, keys);
  let result;
  try {
    if ("jwks" in source) result = check(source.jwks);
    else {
      const rules = { production: options.production, outboundAllow: options.outboundAllow };
      result = check(await remoteKeySet(source.jwksUri, rules, now));
      if (result === "no-key") result = check(await remoteKeySet(source.jwksUri, { ...rules, stale: true }, now));
    }
  } catch (error) {
    // Why is in the log (remote-key-sets.ts); the caller learns nothing about the fetch.
    if (error instanceof KeySetUnavailable) throw new AssertionRefused("the signer's keys cannot be had just now");
    throw error;
  }
  if (result === "no-key") throw new AssertionRefused("no key of the signer matches its kid and alg");
  if (result === "invalid") throw new AssertionRefused("its signature does not verify");
  checkClaims(claims, options.audience, Math.floor(now / 1000));
  return claims;
}

/** `jti` present: the identifier under which a use is recorded. */
export function requireJti(claims: JWTPayload): string {
  if (typeof claims.jti !== "string" || claims.jti === "" || claims.jti.length > 256)
    throw new AssertionRefused("it has no jti (or one over 256 characters)");
  return claims.jti;
}
