/**
 * Removes rows that can never be used again: authorization codes a day after they expired (a code presented again
 * within that day still revokes what it issued), tickets, consent prompts, login sessions a day after they ended or
 * expired, sign-in throttle counters whose window and lock are over, and used assertion ids whose assertions have
 * expired. Each kind is deleted in batches of at most
 * `batch` rows per run, so a run never holds a long transaction or a large delete; the Node server runs it every few
 * minutes (and `npm run admin -- purge` on demand), so even a large backlog drains without anyone noticing.
 */
import type { Db } from "@/lib/db/prisma";
import { THROTTLE_WINDOW_SECONDS } from "@/lib/session/login-throttle";

export const PURGE_BATCH = 1000;
export const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const GRACE_MS = 24 * 3600 * 1000;

export type PurgeCounts = Record<"authorizationCodes" | "tickets" | "interactions" | "loginSessions" | "throttles" | "usedAssertions", number>;

export async function purgeExpired(db: Db, now = new Date(), batch = PURGE_BATCH): Promise<PurgeCounts> {
  const dayAgo = new Date(now.getTime() - GRACE_MS);
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_SECONDS * 1000);

  const codes = await db.authorizationCode.findMany({ where: { expiresAt: { lt: dayAgo } }, select: { id: true }, take: batch });
  const tickets = await db.ticket.findMany({ where: { expiresAt: { lt: now } }, select: { id: true }, take: batch });
  const interactions = await db.authorizationInteraction.findMany({ where: { expiresAt: { lt: now } }, select: { idHash: true }, take: batch });
  const sessions = await db.loginSession.findMany({ where: { OR: [{ expiresAt: { lt: dayAgo } }, { endedAt: { lt: dayAgo } }] }, select: { id: true }, take: batch });
  const throttles = await db.loginThrottle.findMany({
    where: { windowStartedAt: { lt: windowStart }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
    select: { key: true },
    take: batch,
  });
  const assertions = await db.usedAssertion.findMany({ where: { expiresAt: { lt: now } }, select: { key: true }, take: batch });

  return {
    authorizationCodes: (await db.authorizationCode.deleteMany({ where: { id: { in: codes.map((row) => row.id) } } })).count,
    tickets: (await db.ticket.deleteMany({ where: { id: { in: tickets.map((row) => row.id) } } })).count,
    interactions: (await db.authorizationInteraction.deleteMany({ where: { idHash: { in: interactions.map((row) => row.idHash) } } })).count,
    loginSessions: (await db.loginSession.deleteMany({ where: { id: { in: sessions.map((row) => row.id) } } })).count,
    throttles: (await db.loginThrottle.deleteMany({ where: { key: { in: throttles.map((row) => row.key) } } })).count,
    usedAssertions: (await db.usedAssertion.deleteMany({ where: { key: { in: assertions.map((row) => row.key) } } })).count,
  };
}
