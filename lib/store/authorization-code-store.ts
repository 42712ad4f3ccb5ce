/**
 * Authorization codes at rest, by the SHA-256 of their value, each valid for CODE_LIFETIME_SECONDS and bound to its
 * client, redirect URI, PKCE challenge, user, login session and consent. Consuming one is a grouped conditional
 * statement (lib/db/statements/tokens.ts): of concurrent redemptions exactly one succeeds, and a redemption costs no
 * other database statement.
 */
import { CODE_LIFETIME_SECONDS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { consumeAuthorizationCode } from "@/lib/db/statements/tokens";
import { parseAmr } from "@/lib/store/models/authentication";
import type { AuthorizationCode, AuthorizationCodeGrant, ConsumedCode } from "@/lib/store/models/token";

export interface AuthorizationCodeStore {
  /** Stores a code of `value` for the grant, valid from `now`. */
  save(value: string, grant: AuthorizationCodeGrant, now: Date): Promise<void>;
  /** Marks an unexpired, unused code of the client consumed and returns it; undefined when there is none. */
  consume(presented: string, clientId: string, now: Date): Promise<ConsumedCode | undefined>;
  /** The code of this value whatever its state (consumed, expired), or null. */
  find(presented: string): Promise<AuthorizationCode | null>;
}

export const codeExpiry = (now: Date) => new Date(now.getTime() + CODE_LIFETIME_SECONDS * 1000);

/** Deletes the user's unused codes for the client, in the caller's transaction; returns how many. */
export async function deleteUnusedAuthorizationCodes(
  db: Pick<DbTransaction, "authorizationCode">,
  userId: string,
  clientId: string,
): Promise<number> {
  const { count } = await db.authorizationCode.deleteMany({ where: { userId, clientId, consumedAt: null } });
  return count;
}

export function prismaAuthorizationCodeStore(db: Db): AuthorizationCodeStore {
  return {
    async save(value, { scopes, amr, resources, ...grant }, now) {
      await db.authorizationCode.create({
        data: {
          ...grant,
          scopes: JSON.stringify(scopes),
          amr: JSON.stringify(amr),
          resources: JSON.stringify(resources),
          codeHash: hashToken(value),
          codeChallengeMethod: grant.codeChallenge ? "S256" : null,
          createdAt: now,
          expiresAt: codeExpiry(now),
        },
      });
    },
    async consume(presented, clientId, now) {
      const row = await consumeAuthorizationCode(db, hashToken(presented), clientId, now);
      if (!row) return undefined;
      const [scopes, resources] = [JSON.parse(row.scopes) as string[], JSON.parse(row.resources) as string[]];
      return { ...row, clientId, scopes, amr: parseAmr(row.amr), resources };
    },
    async find(presented) {
      const row = await db.authorizationCode.findUnique({ where: { codeHash: hashToken(presented) } });
      if (!row) return null;
      const { codeHash: _hash, codeChallengeMethod: _method, scopes, amr, resources, ...code } = row;
      return {
        ...code,
        scopes: JSON.parse(scopes) as string[],
        amr: parseAmr(amr),
        resources: JSON.parse(resources) as string[],
      };
    },
  };
}
