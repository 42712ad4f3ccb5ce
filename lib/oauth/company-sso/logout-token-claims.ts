/**
 * What OpenID Connect Back-Channel Logout 1.0 (§2.4, §2.6) asks of a logout token's claims besides its signature,
 * issuer, audience and expiry (checked with the provider's keys, logout-token.ts): the logout event, no nonce (so that
 * no ID token passes for one), the person (`sub`), their session at the provider (`sid`) or both, a `jti` to accept
 * once, and an `iat` of the last few minutes, which bounds how long that `jti` must be remembered.
 */
import type { JWTPayload } from "jose";
import { CLOCK_LEEWAY_SECONDS, MAX_LOGOUT_TOKEN_AGE_SECONDS, MAX_SUBJECT_LENGTH } from "@/lib/config/policy";

export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
const MAX_JTI_LENGTH = 256;

/** Whom a logout token signs out: the person, their session at the provider, or both. */
type LoggedOut = { subject: string; sid?: string } | { subject?: string; sid: string };

/** A verified logout token: who is signed out, and until when (seconds since the epoch) its jti is to be refused. */
export type UpstreamLogout = LoggedOut & { issuer: string; jti: string; acceptedUntil: number };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isIdentifier = (value: unknown, max: number) => typeof value === "string" && value !== "" && value.length <= max;

/** Why the claims do not make a logout token, in a sentence, or null. */
export function logoutClaimsProblem(claims: JWTPayload, nowSeconds: number): string | null {
  if (!isObject(claims.events) || !isObject(claims.events[BACKCHANNEL_LOGOUT_EVENT]))
    return `its events claim does not hold ${BACKCHANNEL_LOGOUT_EVENT} as an object`;
  if ("nonce" in claims) return "it holds a nonce, as an ID token does";
  if (claims.sub === undefined && claims.sid === undefined) return "it names neither a sub nor a sid";
  for (const name of ["sub", "sid"])
    if (claims[name] !== undefined && !isIdentifier(claims[name], MAX_SUBJECT_LENGTH))
      return `its ${name} is not a string of 1 to ${MAX_SUBJECT_LENGTH} characters`;
  if (!isIdentifier(claims.jti, MAX_JTI_LENGTH)) return `it has no jti of 1 to ${MAX_JTI_LENGTH} characters`;
  if (typeof claims.iat !== "number") return "it has no iat";
  if (claims.iat > nowSeconds + CLOCK_LEEWAY_SECONDS) return "its iat is in the future";
  if (claims.iat < nowSeconds - MAX_LOGOUT_TOKEN_AGE_SECONDS - CLOCK_LEEWAY_SECONDS) return "its iat is too old";
  return null;
}

/** The logout that claims without a problem (logoutClaimsProblem) ask for. */
export function upstreamLogoutOf(claims: JWTPayload): UpstreamLogout {
  const { iss, sub, sid, jti, iat } = claims as { iss: string; sub?: string; sid?: string; jti: string; iat: number };
  const who = { ...(sub === undefined ? {} : { subject: sub }), ...(sid === undefined ? {} : { sid }) } as LoggedOut;
  return {
    issuer: iss,
    ...who,
    jti,
    acceptedUntil: Math.min(claims.exp ?? Infinity, iat + MAX_LOGOUT_TOKEN_AGE_SECONDS),
  };
}
