/**
 * The local user a trusted issuer's subject names: by the verified `email` claim (subject mapping "email"), or by
 * the operator's explicit link of (issuer, sub) (subject mapping "link"). Only active users the issuer may speak for
 * (issuer-reach.ts); whether a user is missing, inactive or out of reach gives one answer, so a partner learns
 * nothing about which local users exist. Which user id a
 * name maps to is cached per process for a few seconds, like users themselves (lib/store/user-store.ts).
 */
import { MAX_CACHED_FEDERATED_USERS, MAX_USERNAME_LENGTH, USER_CACHE_SECONDS } from "@/lib/config/policy";
import type { JWTPayload } from "jose";
import { processCache } from "@/lib/cache/process-cache";
import type { Db } from "@/lib/db/prisma";
import { AssertionRefused } from "@/lib/jwt/signed-jwt";
import { issuerReaches } from "@/lib/federation/issuer-reach";
import type { TrustedIssuer } from "@/lib/federation/trusted-issuers";
import type { UserWithCompany } from "@/lib/oauth/token/jwt-tokens";
import { findActiveUser } from "@/lib/store/user-store";

const cache = processCache(
  "federatedUserIds",
  () => new Map<string, { loadedAt: number; userId: Promise<string | null> }>(),
);

function cachedUserId(key: string, load: () => Promise<string | null>, now: number): Promise<string | null> {
  const entry = cache.get(key);
  if (entry && now - entry.loadedAt < USER_CACHE_SECONDS * 1000) return entry.userId;
  if (cache.size >= MAX_CACHED_FEDERATED_USERS) cache.clear();
  const userId = load();
  cache.set(key, { loadedAt: now, userId });
  userId.catch(() => cache.delete(key));
  return userId;
}

function emailOf(claims: JWTPayload): string {
  if (typeof claims.email !== "string" || claims.email === "" || claims.email.length > MAX_USERNAME_LENGTH)
    throw new AssertionRefused("it has no email claim, and this issuer's subjects are mapped by email");
  if (claims.email_verified !== true)
    throw new AssertionRefused("its email is not verified (email_verified is not true)");
  // ASCII letters only: toLowerCase() would fold other characters (the Kelvin sign K) onto another user's address.
  return claims.email.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export async function federatedUser(
  db: Db,
  issuer: TrustedIssuer,
  subject: string,
  claims: JWTPayload,
  now = Date.now(),
): Promise<UserWithCompany> {
  let userId: string | null;
  if (issuer.subjectMapping === "email") {
    const email = emailOf(claims);
    userId = await cachedUserId(
      `email\n${email}`,
      async () => (await db.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null,
      now,
    );
  } else {
    const where = { issuer_subject: { issuer: issuer.issuer, subject } };
    userId = await cachedUserId(
      `link\n${issuer.issuer}\n${subject}`,
      async () => (await db.federatedSubject.findUnique({ where, select: { userId: true } }))?.userId ?? null,
      now,
    );
  }
  const found = userId ? await findActiveUser(db, userId, now) : null;
  const user = found && issuerReaches(issuer, found) ? found : null;
  if (!user)
    throw new AssertionRefused(
      issuer.subjectMapping === "email"
        ? "its verified email does not name an active local user this issuer speaks for"
        : "its subject is not linked to an active local user this issuer speaks for",
    );
  return user;
}

/** Forgets the mapped ids (the operator linked a subject in this process). */
export function forgetFederatedUsers(): void {
  cache.clear();
}
