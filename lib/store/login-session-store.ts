/**
 * Login sessions behind single sign-on (`login_sessions`), stored by the SHA-256 of their cookie value and valid for
 * SESSION_LIFETIME_SECONDS after sign-in, and the clients each session signed in to (`login_session_clients`), so that
 * they can be told when it ends.
 */
import { MAX_USER_AGENT_LENGTH, SESSION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db, DbTransaction } from "@/lib/db/prisma";

/** Stores a session signed in `now` under the cookie value, with how it was signed in (`amr`); returns its id. */
export async function storeLoginSession(
  db: Db,
  cookieValue: string,
  userId: string,
  client: { ipAddress?: string; userAgent?: string },
  now: Date,
  amr: readonly string[],
): Promise<string> {
  const session = await db.loginSession.create({
    data: {
      tokenHash: hashToken(cookieValue),
      userId,
      authTime: now,
      amr: JSON.stringify(amr),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000),
      ipAddress: client.ipAddress,
      userAgent: client.userAgent?.slice(0, MAX_USER_AGENT_LENGTH),
    },
  });
  await db.user.update({ where: { id: userId }, data: { lastSignInAt: now } });
  return session.id;
}

/** The session of the cookie value with its user and the user's company, ended or expired ones included. */
export function findLoginSession(db: Db, cookieValue: string) {
  return db.loginSession.findUnique({
    where: { tokenHash: hashToken(cookieValue) },
    include: { user: { include: { company: true } } },
  });
}

/**
 * A current session's methods grow (a second factor given, or a first one set up), with when it counts as signed in
 * (now after a step-up; unchanged after setting up a factor).
 */
export async function raiseLoginSession(
  db: Db,
  sessionId: string,
  amr: readonly string[],
  authTime: Date,
): Promise<boolean> {
  const { count } = await db.loginSession.updateMany({
    where: { id: sessionId, endedAt: null },
    data: { amr: JSON.stringify(amr), authTime },
  });
  return count === 1;
}

export async function endLoginSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db.loginSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now } });
}

/** Ends every current session of the user, or all but the one to keep; returns their ids. */
export async function endAllLoginSessions(
  db: Pick<DbTransaction, "loginSession">,
  userId: string,
  now = new Date(),
  keepId?: string,
): Promise<string[]> {
  const sessions = await db.loginSession.findMany({
    where: { userId, endedAt: null, ...(keepId ? { id: { not: keepId } } : {}) },
    select: { id: true },
  });
  await db.loginSession.updateMany({
    where: { id: { in: sessions.map((s) => s.id) }, endedAt: null },
    data: { endedAt: now },
  });
  return sessions.map((s) => s.id);
}

/** Remembers that the session signed in to the client (once however often it does). */
export async function rememberSessionClient(db: Db, sessionId: string, clientId: string): Promise<void> {
  await db.loginSessionClient.upsert({
    where: { sessionId_clientId: { sessionId, clientId } },
    create: { sessionId, clientId },
    update: {},
  });
}

/** The clients the sessions signed in to, each with its session's user. */
export async function listSessionClients(
  db: Db,
  sessionIds: string[],
): Promise<{ sessionId: string; clientId: string; userId: string }[]> {
  const rows = await db.loginSessionClient.findMany({
    where: { sessionId: { in: sessionIds } },
    include: { session: { select: { userId: true } } },
  });
  return rows.map((row) => ({ sessionId: row.sessionId, clientId: row.clientId, userId: row.session.userId }));
}

export interface ListedSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
}

/** The user's current sessions (not ended, not expired), the most recently used first. */
export function listCurrentSessions(db: Db, userId: string, now = new Date()): Promise<ListedSession[]> {
  return db.loginSession.findMany({
    where: { userId, endedAt: null, expiresAt: { gt: now } },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
    select: { id: true, createdAt: true, lastSeenAt: true, ipAddress: true, userAgent: true },
  });
}

/** Ends one current session of the user (and only of that user); false when there is none by that id. */
export async function endUserSession(db: Db, userId: string, sessionId: string, now = new Date()): Promise<boolean> {
  const ended = await db.loginSession.updateMany({
    where: { id: sessionId, userId, endedAt: null },
    data: { endedAt: now },
  });
  return ended.count === 1;
}

/** Records that the session was used now, when it was last recorded longer ago than `every` (one write a minute). */
export async function touchLoginSession(db: Db, sessionId: string, now: Date, everyMs: number): Promise<void> {
  await db.loginSession.updateMany({
    where: { id: sessionId, lastSeenAt: { lt: new Date(now.getTime() - everyMs) } },
    data: { lastSeenAt: now },
  });
}
