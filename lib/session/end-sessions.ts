/** Ending login sessions: one (sign-out) or all of a user's (the portal's "sign out everywhere"). */
import type { Db } from "@/lib/db/prisma";

export async function endLoginSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db.loginSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now } });
}

export async function endAllLoginSessions(db: Db, userId: string, now = new Date()): Promise<number> {
  const ended = await db.loginSession.updateMany({ where: { userId, endedAt: null }, data: { endedAt: now } });
  return ended.count;
}
