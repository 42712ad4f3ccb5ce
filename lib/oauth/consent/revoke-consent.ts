/**
 * Takes back a user's consent for a client, in one transaction with everything that lives on it: the client's
 * refresh tokens for that user are revoked and its unused authorization codes deleted. The client's next refresh is
 * invalid_grant and its next sign-in asks for consent again. Used by the portal.
 */
import { revokeRefreshTokens } from "@/lib/store/refresh-token-store";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Db } from "@/lib/db/prisma";

/** Returns false when there was no consent to revoke. */
export async function revokeConsent(db: Db, userId: string, clientId: string, now = new Date()): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const revoked = await tx.consent.updateMany({
      where: { userId, clientId, revokedAt: null },
      data: { revokedAt: now },
    });
    if (revoked.count === 0) return false;
    const tokens = await revokeRefreshTokens(tx, { userId, clientId }, now);
    const codes = await tx.authorizationCode.deleteMany({ where: { userId, clientId, consumedAt: null } });
    await recordAuditEvent(tx, {
      type: "consent.revoked",
      userId,
      clientId,
      details: { refreshTokens: tokens, codes: codes.count },
    });
    return true;
  });
}
