/**
 * A trusted issuer's JWT presented for a user (RFC 7523 §3, for the jwt-bearer grant and for token exchange): the
 * issuer is trusted and allows this client; the JWT is signed by the issuer's current key, names OptiGate in `aud`,
 * has `sub`, `exp` at most an hour after it was issued, `nbf` and `iat` within a minute's leeway, and a `jti` not
 * seen before; its subject names an active local user. Each failed check throws AssertionRefused naming it. The
 * jti is recorded last, with the audit event of the token, so a refused assertion writes nothing.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { CLOCK_LEEWAY_SECONDS, MAX_FEDERATED_LIFETIME_SECONDS, MAX_SUBJECT_LENGTH } from "@/lib/config/policy";
import type { JWTPayload } from "jose";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { DataAccess } from "@/lib/service-context";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { acceptOnce } from "@/lib/jwt/assertion-replay";
import { federatedUser } from "@/lib/oauth/federation/federated-user";
import { AssertionRefused, requireJti, unverifiedClaims, verifySignedJwt } from "@/lib/jwt/signed-jwt";
import type { UserWithCompany } from "@/lib/store/models/user";
import { principalOf } from "@/lib/jwt/token-principal";

export interface FederatedIdentity {
  issuer: string;
  subject: string;
  user: UserWithCompany;
  /** When the user signed in at the issuer, if it says so plausibly. */
  authTime?: Date;
}

export interface FederationSettings extends DataAccess {
  /** OptiGate's issuer URL: `aud` must name it or its token endpoint. */
  issuer: string;
  production: boolean;
  /** Ranges key sets may be fetched from although they are not public (OUTBOUND_ALLOW). */
  outboundAllow: AddressRanges;
}

/** The issuer the JWT claims, before anything is verified: to find its keys, and to name it in the audit trail. */
export function claimedIssuer(jwt: string): string | undefined {
  try {
    const iss = unverifiedClaims(jwt).iss;
    return typeof iss === "string" && iss.length <= 500 ? iss : undefined;
  } catch {
    return undefined;
  }
}

function checkTimes(claims: JWTPayload, nowSeconds: number): void {
  const issuedAt = typeof claims.iat === "number" ? claims.iat : undefined;
  if (issuedAt !== undefined && issuedAt > nowSeconds + CLOCK_LEEWAY_SECONDS)
    throw new AssertionRefused("it was issued in the future (iat)");
  if (typeof claims.nbf === "number" && claims.nbf > nowSeconds + CLOCK_LEEWAY_SECONDS)
    throw new AssertionRefused("it is not valid yet (nbf)");
  if (claims.exp! - (issuedAt ?? nowSeconds) > MAX_FEDERATED_LIFETIME_SECONDS)
    throw new AssertionRefused("its lifetime exceeds one hour (exp)");
}

/**
 * Verifies the JWT for `clientId`; `audit` describes the token about to be issued, recorded with the use of the jti
 * (so a token is issued only with its event written).
 */
/** The issuer's `auth_time` when it is a plausible time (whole seconds, not in the future); otherwise none. */
function signInTime(authTime: unknown, now: Date): Date | undefined {
  const latest = Math.floor(now.getTime() / 1000) + CLOCK_LEEWAY_SECONDS;
  return Number.isSafeInteger(authTime) && (authTime as number) > 0 && (authTime as number) <= latest
    ? new Date((authTime as number) * 1000)
    : undefined;
}

export async function verifyFederatedAssertion(
  settings: FederationSettings,
  clientId: string,
  jwt: string,
  audit: (identity: FederatedIdentity) => AuditEvent,
  now = new Date(),
): Promise<FederatedIdentity> {
  const iss = unverifiedClaims(jwt).iss;
  if (typeof iss !== "string" || iss === "" || iss.length > 500) throw new AssertionRefused("it has no iss");
  const issuer = await settings.stores.trustedIssuers.find(iss, now.getTime());
  // One answer for both: a client learns nothing about issuers it may not use.
  if (!issuer?.clientIds.has(clientId))
    throw new AssertionRefused(`its iss "${iss}" is not an issuer this client may use`);
  if (!issuer.reach)
    throw new AssertionRefused(
      `its issuer "${iss}" does not name whom it speaks for yet: the operator must set its companies or email_domains`,
    );
  const claims = await verifySignedJwt(
    jwt,
    issuer.keys,
    {
      audience: [settings.issuer, `${settings.issuer}${ENDPOINTS.token}`],
      production: settings.production,
      outboundAllow: settings.outboundAllow,
    },
    now.getTime(),
  );
  if (typeof claims.sub !== "string" || claims.sub === "" || claims.sub.length > MAX_SUBJECT_LENGTH)
    throw new AssertionRefused("it has no sub");
  if (principalOf(claims)?.kind === "client")
    throw new AssertionRefused("it stands for a client acting for itself, not for a user");
  checkTimes(claims, Math.floor(now.getTime() / 1000));
  const jti = requireJti(claims);
  const user = await federatedUser(settings, issuer, claims.sub, claims, now.getTime());
  const identity = { issuer: issuer.issuer, subject: claims.sub, user, authTime: signInTime(claims.auth_time, now) };
  await acceptOnce(settings.stores.usedAssertions, "grant", issuer.issuer, jti, claims.exp!, now, audit(identity));
  return identity;
}
