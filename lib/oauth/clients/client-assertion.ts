/**
 * private_key_jwt client authentication (RFC 7523 §2.2 and §3, OpenID Connect Core §9): a JWT the client signed with
 * one of its registered keys, `iss` = `sub` = client_id, `aud` naming the token endpoint or the issuer, `exp` at most
 * five minutes ahead, and a `jti` accepted once until the assertion expires. The checks that need no key are made
 * first and named in the error; whether the signature fails, the key is unknown or the client does not exist gets
 * one answer, so the endpoint tells nobody which clients exist.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { CLOCK_LEEWAY_SECONDS, MAX_CLIENT_ASSERTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { decodeProtectedHeader, type JWTPayload } from "jose";
import { acceptOnce } from "@/lib/jwt/assertion-replay";
import { ASSERTION_ALGORITHMS } from "@/lib/jwt/key-set-rules";
import { AssertionRefused, requireJti, unverifiedClaims, verifySignedJwt } from "@/lib/jwt/signed-jwt";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { clientOutboundAllow } from "@/lib/oauth/clients/client-outbound-allow";
import { invalidClient } from "@/lib/errors/oauth-error";
import type { ServiceContext } from "@/lib/service-context";

const refused = (reason: string) => invalidClient(`client assertion refused: ${reason}`);

/** RFC 7523 §3 and RFC 9126 §2: the token endpoint, the issuer, or the pushed authorization request endpoint. */
const assertionAudiences = (issuer: string) => [`${issuer}${ENDPOINTS.token}`, issuer, `${issuer}${ENDPOINTS.par}`];

function audienceNames(aud: unknown, audiences: string[]): boolean {
  const list = Array.isArray(aud) ? aud : [aud];
  return list.some((value) => typeof value === "string" && audiences.includes(value));
}

/** The checks that need no key; returns the client id the assertion names. */
export function readClientAssertion(jwt: string, issuer: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  let claims: JWTPayload;
  let alg: unknown;
  try {
    claims = unverifiedClaims(jwt);
    alg = decodeProtectedHeader(jwt).alg;
  } catch {
    throw refused("it is not a well-formed signed JWT");
  }
  if (!(ASSERTION_ALGORITHMS as readonly unknown[]).includes(alg))
    throw refused(`its alg "${String(alg)}" is not accepted (accepted: ${ASSERTION_ALGORITHMS.join(", ")})`);
  if (typeof claims.iss !== "string" || claims.iss === "" || claims.iss !== claims.sub)
    throw refused("iss and sub must both be the client_id");
  if (!audienceNames(claims.aud, assertionAudiences(issuer)))
    throw refused(`its aud must name the token endpoint (${assertionAudiences(issuer)[0]}) or the issuer`);
  if (typeof claims.exp !== "number") throw refused("it has no exp");
  if (claims.exp < nowSeconds - CLOCK_LEEWAY_SECONDS) throw refused("it has expired");
  if (claims.exp > nowSeconds + MAX_CLIENT_ASSERTION_LIFETIME_SECONDS)
    throw refused(`its exp lies more than ${MAX_CLIENT_ASSERTION_LIFETIME_SECONDS / 60} minutes ahead`);
  if (claims.iat !== undefined && (typeof claims.iat !== "number" || claims.iat > nowSeconds + CLOCK_LEEWAY_SECONDS))
    throw refused("it was issued in the future (iat)");
  try {
    requireJti(claims);
  } catch (error) {
    throw refused((error as Error).message);
  }
  return claims.iss;
}

/** Verifies the signature with the client's keys, then uses up its jti. `client` is null when none was found. */
export async function verifyClientAssertion(
  context: ServiceContext,
  client: ClientWithSecrets | null,
  jwt: string,
  now = new Date(),
): Promise<void> {
  const keys = client?.jwks ? { jwks: client.jwks } : client?.jwksUri ? { jwksUri: client.jwksUri } : null;
  if (!client || client.tokenEndpointAuthMethod !== "private_key_jwt" || !keys)
    throw refused("its signature cannot be verified with the client's registered keys");
  let claims: JWTPayload;
  try {
    claims = await verifySignedJwt(
      jwt,
      keys,
      {
        audience: assertionAudiences(context.config.publicUrl),
        production: context.config.production,
        outboundAllow: clientOutboundAllow(context.config.outboundAllow, client),
      },
      now.getTime(),
    );
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    throw refused("its signature cannot be verified with the client's registered keys");
  }
  try {
    await acceptOnce(context.stores.usedAssertions, "client", client.id, requireJti(claims), claims.exp!, now);
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    throw refused(error.message);
  }
}
