/** Ending login sessions: one (sign-out) or all of a user's (the portal's "sign out everywhere"). */
import type { Db } from "@/lib/db/prisma";

export async function endLoginSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db.loginSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now } });
}

/** Ends every current session of the user; returns their ids. */
export async function endAllLoginSessions(db: Db, userId: string, now = new Date()): Promise<string[]> {
  const sessions = await db.loginSession.findMany({ where: { userId, endedAt: null }, select: { id: true } });
  await db.loginSession.updateMany({
    where: { id: { in: sessions.map((s) => s.id) }, endedAt: null },
    data: { endedAt: now },
  });
  return sessions.map((s) => s.id);
}
