/**
 * Login sessions behind single sign-on (`login_sessions`), stored by the SHA-256 of their cookie value and valid for
 * SESSION_LIFETIME_SECONDS after sign-in, and the clients each session signed in to (`login_session_clients`), so that
 * they can be told when it ends.
 */
import { MAX_USER_AGENT_LENGTH, SESSION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { parseAmr, type AuthenticationMethod } from "@/lib/store/models/authentication";
import type {
  ListedSession,
  LoginSession,
  SessionClient,
  UpstreamLogoutMatch,
  UpstreamSession,
} from "@/lib/store/models/session";

export interface LoginSessionStore {
  /**
   * Stores a session signed in `now` under the cookie value, with how (`amr`) and the company's provider it came
   * through (`upstream`, if any); notes the user's sign-in; its id.
   */
  save(
    cookieValue: string,
    userId: string,
    client: { ipAddress?: string; userAgent?: string },
    now: Date,
    amr: readonly AuthenticationMethod[],
    upstream?: UpstreamSession,
  ): Promise<string>;
  /** The session of the cookie value with its user and company, ended or expired ones included. */
  find(cookieValue: string): Promise<LoginSession | null>;
  /**
   * A current session's methods grow (a second factor given, or a first one set up), with when it counts as signed
   * in (now after a step-up; unchanged after setting up a factor). False when the session has ended.
   */
  raise(sessionId: string, amr: readonly AuthenticationMethod[], authTime: Date): Promise<boolean>;
  end(sessionId: string, now: Date): Promise<void>;
  /** Ends every current session of the user, or all but the one to keep; returns their ids. */
  endAll(userId: string, now: Date, keepId?: string): Promise<string[]>;
  /** Ends the current sessions a company's provider signs out (back-channel logout); returns them with their users. */
  endUpstream(match: UpstreamLogoutMatch, now: Date): Promise<{ id: string; userId: string }[]>;
  /** Ends one current session of the user (and only of that user); false when there is none by that id. */
  endOne(userId: string, sessionId: string, now: Date): Promise<boolean>;
  /** Records that the session was used now, when it was last recorded longer ago than `everyMs`. */
  touch(sessionId: string, now: Date, everyMs: number): Promise<void>;
  /** Remembers that the session signed in to the client (once however often it does). */
  rememberClient(sessionId: string, clientId: string): Promise<void>;
  /** The clients the sessions signed in to, each with its session's user. */
  listClients(sessionIds: string[]): Promise<SessionClient[]>;
  /** The user's current sessions (not ended, not expired), the most recently used first. */
  listCurrent(userId: string, now: Date): Promise<ListedSession[]>;
  /** How many sessions are current at `now`: everyone's, or those of one company's people. */
  countCurrent(now: Date, companyId?: string): Promise<number>;
}

export const sessionExpiry = (now: Date) => new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);

/** Ends every current session of the user, or all but the one to keep; returns their ids. */
export async function endAllLoginSessions(
  db: Pick<DbTransaction, "loginSession">,
  userId: string,
  now: Date,
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

/** The current sessions the match names, of people linked at its issuer for one of its companies, ended. */
async function endUpstreamSessions(db: Db, { issuer, companyIds, subject, sid }: UpstreamLogoutMatch, now: Date) {
  const link = { issuer, companyId: { in: companyIds }, ...(subject === undefined ? {} : { subject }) };
  const sessions = await db.loginSession.findMany({
    where: {
      endedAt: null,
      upstreamIssuer: issuer,
      ...(sid === undefined ? {} : { upstreamSid: sid }),
      user: { ssoIdentities: { some: link } },
    },
    select: { id: true, userId: true },
  });
  await db.loginSession.updateMany({
    where: { id: { in: sessions.map((session) => session.id) }, endedAt: null },
    data: { endedAt: now },
  });
  return sessions;
}

export function prismaLoginSessionStore(db: Db): LoginSessionStore {
  return {
    async save(cookieValue, userId, client, now, amr, upstream) {
      const session = await db.loginSession.create({
        data: {
          tokenHash: hashToken(cookieValue),
          userId,
          authTime: now,
          amr: JSON.stringify(amr),
          createdAt: now,
          lastSeenAt: now,
          expiresAt: sessionExpiry(now),
          ipAddress: client.ipAddress,
          userAgent: client.userAgent?.slice(0, MAX_USER_AGENT_LENGTH),
          upstreamIssuer: upstream?.issuer,
          upstreamSid: upstream?.sid,
        },
      });
      await db.user.update({ where: { id: userId }, data: { lastSignInAt: now } });
      return session.id;
    },
    async find(cookieValue) {
      const row = await db.loginSession.findUnique({
        where: { tokenHash: hashToken(cookieValue) },
        include: { user: { include: { company: true } } },
      });
      if (!row) return null;
      const { tokenHash: _hash, amr, ...session } = row;
      return { ...session, amr: parseAmr(amr) };
    },
    async raise(sessionId, amr, authTime) {
      const { count } = await db.loginSession.updateMany({
        where: { id: sessionId, endedAt: null },
        data: { amr: JSON.stringify(amr), authTime },
      });
      return count === 1;
    },
    async end(sessionId, now) {
      await db.loginSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now } });
    },
    endAll: (userId, now, keepId) => endAllLoginSessions(db, userId, now, keepId),
    endUpstream: (match, now) => endUpstreamSessions(db, match, now),
    async endOne(userId, sessionId, now) {
      const ended = await db.loginSession.updateMany({
        where: { id: sessionId, userId, endedAt: null },
        data: { endedAt: now },
      });
      return ended.count === 1;
    },
    async touch(sessionId, now, everyMs) {
      await db.loginSession.updateMany({
        where: { id: sessionId, lastSeenAt: { lt: new Date(now.getTime() - everyMs) } },
        data: { lastSeenAt: now },
      });
    },
    async rememberClient(sessionId, clientId) {
      await db.loginSessionClient.upsert({
        where: { sessionId_clientId: { sessionId, clientId } },
        create: { sessionId, clientId },
        update: {},
      });
    },
    async listClients(sessionIds) {
      const rows = await db.loginSessionClient.findMany({
        where: { sessionId: { in: sessionIds } },
        include: { session: { select: { userId: true } } },
      });
      return rows.map((row) => ({ sessionId: row.sessionId, clientId: row.clientId, userId: row.session.userId }));
    },
    countCurrent: (now, companyId) =>
      db.loginSession.count({
        where: { endedAt: null, expiresAt: { gt: now }, ...(companyId !== undefined ? { user: { companyId } } : {}) },
      }),
    listCurrent: (userId, now) =>
      db.loginSession.findMany({
        where: { userId, endedAt: null, expiresAt: { gt: now } },
        orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
        select: { id: true, createdAt: true, lastSeenAt: true, ipAddress: true, userAgent: true },
      }),
  };
}
