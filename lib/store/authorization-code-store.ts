/**
 * Authorization codes at rest, by the SHA-256 of their value, each valid for CODE_LIFETIME_SECONDS and bound to its
 * client, redirect URI, PKCE challenge, user, login session and consent. Consuming one is a grouped conditional
 * statement (lib/db/statements/tokens.ts): of concurrent redemptions exactly one succeeds, and a redemption costs no
 * other database statement.
 */
import { CODE_LIFETIME_SECONDS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db, DbTransaction } from "@/lib/db/prisma";

export { consumeAuthorizationCode } from "@/lib/db/statements/tokens";

/** What a code holds besides its value; `scopes` is the JSON list of the granted ones. */
export interface AuthorizationCodeGrant {
  clientId: string;
  userId: string;
  consentId?: string;
  loginSessionId: string;
  redirectUri: string;
  scopes: string;
  requestedScopes: string;
  nonce?: string;
  codeChallenge?: string;
  /** dpop_jkt of the authorization request */
  dpopJkt?: string;
  authTime: Date;
  /** RFC 8176 methods of the sign-in, as JSON */
  amr: string;
}

/** Stores a code of `value` for the grant, valid from `now`. */
export async function storeAuthorizationCode(
  db: Db,
  value: string,
  grant: AuthorizationCodeGrant,
  now: Date,
): Promise<void> {
  await db.authorizationCode.create({
    data: {
      ...grant,
      codeHash: hashToken(value),
      codeChallengeMethod: grant.codeChallenge ? "S256" : null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_SECONDS * 1000),
    },
  });
}

/** The code of this hash whatever its state (consumed, expired), or null. */
export function findAuthorizationCode(db: Db, codeHash: string) {
  return db.authorizationCode.findUnique({ where: { codeHash } });
}

/** Deletes the user's unused codes for the client; returns how many. */
export async function deleteUnusedAuthorizationCodes(
  db: Pick<DbTransaction, "authorizationCode">,
  userId: string,
  clientId: string,
): Promise<number> {
  const { count } = await db.authorizationCode.deleteMany({ where: { userId, clientId, consumedAt: null } });
  return count;
}
