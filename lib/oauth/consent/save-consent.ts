/**
 * Remembers a user's consent decision for a client. A decision covers the scopes that were asked: those the user
 * ticked are granted, those unticked are taken back, and scopes granted earlier but not asked about stay granted.
 */
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Db } from "@/lib/db/prisma";

export async function saveConsent(
  db: Db,
  userId: string,
  clientId: string,
  asked: string[],
  granted: string[],
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const existing = await tx.consent.findUnique({ where: { userId_clientId: { userId, clientId } } });
    const kept =
      existing && !existing.revokedAt
        ? (JSON.parse(existing.scopes) as string[]).filter((scope) => !asked.includes(scope))
        : [];
    const scopes = JSON.stringify([...new Set([...kept, ...granted])]);
    await tx.consent.upsert({
      where: { userId_clientId: { userId, clientId } },
      create: { userId, clientId, scopes, grantedAt: now },
      update: { scopes, grantedAt: now, revokedAt: null },
    });
    await recordAuditEvent(tx, {
      type: "consent.granted",
      userId,
      clientId,
      details: { granted, declined: asked.filter((s) => !granted.includes(s)) },
    });
  });
}
