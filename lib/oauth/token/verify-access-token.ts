/**
 * Verifies an access token OptiGate issued (RFC 9068): signature against the current and still-published keys,
 * `typ: at+jwt` (so ID tokens and logout tokens are refused), issuer, expiry, an audience the caller accepts (a
 * resource server only its own, RFC 8707), and that its client is still registered (removing a client ends its
 * tokens at once). Refresh tokens are opaque and never verify.
 */
import { MAX_CACHED_VERIFIED_TOKENS } from "@/lib/config/policy";
import { jwtVerify, type JWTPayload } from "jose";
import { processCache } from "@/lib/observability/process-cache";
import { noteClient, noteUser } from "@/lib/observability/request-context";
import type { Stores } from "@/lib/store/stores";
import { invalidToken } from "@/lib/errors/oauth-error";
import type { ServiceContext } from "@/lib/service-context";
import { userIdOf } from "@/lib/jwt/token-principal";

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  client_id: string;
  scope: string;
  /** the user's company at issue time, or the company the operator gave a backend client */
  company_id?: string;
  /** RFC 9449 §6.1: the thumbprint of the DPoP key the token is bound to */
  cnf?: { jkt?: string };
}

/** The DPoP key a token is bound to, or undefined for a bearer token. */
export const boundKeyOf = (claims: AccessTokenClaims): string | undefined =>
  typeof claims.cnf?.jkt === "string" ? claims.cnf.jkt : undefined;

export interface VerifyOptions {
  /**
   * The audiences the caller accepts: a resource server's own (acceptedAudiences in lib/oauth/resource-indicators.ts);
   * "any" for introspection and revocation, which describe or refuse whatever access token OptiGate issued.
   */
  audiences: readonly string[] | "any";
  now?: Date;
  /** tolerated clock difference for `exp`, `nbf` and `iat` */
  leewaySeconds?: number;
}

/** A verified token's claims, and the key that signed it: a key retired since ends its tokens here too. */
interface VerifiedToken {
  claims: AccessTokenClaims;
  kid: string | undefined;
}

const verified = processCache("verifiedAccessTokens", () => new WeakMap<Stores, Map<string, VerifiedToken>>());

async function remembered(
  context: ServiceContext,
  token: string,
  options: VerifyOptions,
): Promise<AccessTokenClaims | undefined> {
  const entry = verified.get(context.stores)?.get(token);
  const now = Math.floor((options.now?.getTime() ?? Date.now()) / 1000);
  if (
    !entry ||
    entry.claims.iss !== context.config.publicUrl ||
    entry.claims.exp! + (options.leewaySeconds ?? 0) <= now
  )
    return undefined;
  // The key set is cached too (KEY_CACHE_SECONDS): a key retired now (`keys retire`) stops verifying everywhere soon.
  const keys = await context.stores.signingKeys.keySet(context.config.secretKey);
  return keys.jwks.keys.some((key) => key.kid === entry.kid) ? entry.claims : undefined;
}

function remember(context: ServiceContext, token: string, entry: VerifiedToken): void {
  let tokens = verified.get(context.stores);
  if (!tokens) verified.set(context.stores, (tokens = new Map()));
  if (tokens.size >= MAX_CACHED_VERIFIED_TOKENS) tokens.delete(tokens.keys().next().value!);
  tokens.set(token, entry);
}

export async function verifyAccessToken(
  context: ServiceContext,
  token: string,
  options: VerifyOptions,
): Promise<AccessTokenClaims> {
  const claims = (await remembered(context, token, options)) ?? (await verifySignature(context, token, options));
  // Checked on every use, not when verified: the cache holds a token for whichever resource server saw it first.
  const { audiences } = options;
  if (audiences !== "any" && ![claims.aud].flat().some((audience) => audience && audiences.includes(audience)))
    throw invalidToken("the access token is for another resource server");
  if (!(await context.stores.clients.find(claims.client_id)))
    throw invalidToken("the client of this access token is no longer registered");
  return claims;
}

/**
 * Records the client and the user of a token that its bearer presented as its own credential (userinfo, the platform
 * API, SilentLogin) for the request's log line and trace; not of one presented to introspection or revocation.
 */
export function noteTokenCaller(claims: AccessTokenClaims): void {
  noteClient(claims.client_id);
  const userId = userIdOf(claims);
  if (userId !== undefined) noteUser(userId);
}

async function verifySignature(
  context: ServiceContext,
  token: string,
  options: VerifyOptions,
): Promise<AccessTokenClaims> {
  const keys = await context.stores.signingKeys.keySet(context.config.secretKey);
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keys.verify, {
      issuer: context.config.publicUrl,
      typ: "at+jwt",
      algorithms: ["RS256", "ES256"],
      currentDate: options.now,
      clockTolerance: options.leewaySeconds ?? 0,
    });
    if (
      typeof payload.sub !== "string" ||
      typeof payload.scope !== "string" ||
      typeof payload.client_id !== "string" ||
      typeof payload.exp !== "number"
    ) {
      throw new Error("claims missing");
    }
    remember(context, token, { claims: payload as AccessTokenClaims, kid: protectedHeader.kid });
    return payload as AccessTokenClaims;
  } catch {
    throw invalidToken("the access token is invalid or has expired");
  }
}
