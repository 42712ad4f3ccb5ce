/**
 * The local user a trusted issuer's subject names: by the verified `email` claim (subject mapping "email"), or by
 * the operator's explicit link of (issuer, sub) (subject mapping "link"). Only active users the issuer may speak for
 * (issuer-reach.ts); whether a user is missing, inactive or out of reach gives one answer, so a partner learns
 * nothing about which local users exist. Which user id a name maps to comes from the trusted-issuer store's short
 * cache.
 */
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import type { JWTPayload } from "jose";
import { AssertionRefused } from "@/lib/jwt/signed-jwt";
import { issuerReaches } from "@/lib/oauth/federation/issuer-reach";
import type { TrustedIssuer } from "@/lib/store/models/trusted-issuer";
import type { UserWithCompany } from "@/lib/store/models/user";
import type { DataAccess } from "@/lib/service-context";

function emailOf(claims: JWTPayload): string {
  if (typeof claims.email !== "string" || claims.email === "" || claims.email.length > MAX_USERNAME_LENGTH)
    throw new AssertionRefused("it has no email claim, and this issuer's subjects are mapped by email");
  if (claims.email_verified !== true)
    throw new AssertionRefused("its email is not verified (email_verified is not true)");
  // ASCII letters only: toLowerCase() would fold other characters (the Kelvin sign K) onto another user's address.
  return claims.email.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export async function federatedUser(
  { stores }: DataAccess,
  issuer: TrustedIssuer,
  subject: string,
  claims: JWTPayload,
  now = Date.now(),
): Promise<UserWithCompany> {
  const userId =
    issuer.subjectMapping === "email"
      ? await stores.trustedIssuers.findUserIdByEmail(emailOf(claims), now)
      : await stores.trustedIssuers.findLinkedUserId(issuer.issuer, subject, now);
  const found = userId ? await stores.users.findActive(userId, now) : null;
  const user = found && issuerReaches(issuer, found) ? found : null;
  if (!user)
    throw new AssertionRefused(
      issuer.subjectMapping === "email"
        ? "its verified email does not name an active local user this issuer speaks for"
        : "its subject is not linked to an active local user this issuer speaks for",
    );
  return user;
}
