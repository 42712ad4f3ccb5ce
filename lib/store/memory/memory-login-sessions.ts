/** Sign-in sessions in memory, with the database store's rules (lib/store/login-session-store.ts). */
import { randomUUID } from "node:crypto";
import { MAX_USER_AGENT_LENGTH } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import { sessionExpiry, type LoginSessionStore } from "@/lib/store/login-session-store";
import type { LoginSession, UpstreamLogoutMatch } from "@/lib/store/models/session";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export type StoredSession = Omit<LoginSession, "user">;

/** Whether the session's user is linked at the match's issuer (as its subject, if named) for one of its companies. */
function linkedAsMatched(tables: MemoryTables, userId: string, { issuer, companyIds, subject }: UpstreamLogoutMatch) {
  return [...tables.ssoIdentities].some(
    ([key, link]) =>
      link.userId === userId &&
      companyIds.includes(link.companyId) &&
      (subject === undefined ? key.startsWith(`${issuer}\n`) : key === `${issuer}\n${subject}`),
  );
}

export function memoryLoginSessionStore(tables: MemoryTables): LoginSessionStore {
  const rows = tables.loginSessions;
  const byId = (id: string) => [...rows.values()].find((session) => session.id === id);
  const endWhere = (match: (session: StoredSession) => boolean, now: Date) => {
    const ended = [...rows.values()].filter((session) => !session.endedAt && match(session));
    for (const session of ended) session.endedAt = now;
    return ended.map((session) => session.id);
  };
  return {
    async save(cookieValue, userId, client, now, amr, upstream) {
      const user = tables.users.get(userId);
      if (!user) throw new Error(`no user ${userId}`);
      const id = randomUUID();
      rows.set(hashToken(cookieValue), {
        id,
        userId,
        authTime: now,
        amr: [...amr],
        createdAt: now,
        lastSeenAt: now,
        expiresAt: sessionExpiry(now),
        endedAt: null,
        ipAddress: client.ipAddress ?? null,
        userAgent: client.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
        upstreamIssuer: upstream?.issuer ?? null,
        upstreamSid: upstream?.sid ?? null,
      });
      user.lastSignInAt = now;
      return id;
    },
    async find(cookieValue) {
      const session = rows.get(hashToken(cookieValue));
      const user = session && tables.users.get(session.userId);
      const company = user && tables.companies.get(user.companyId);
      return session && user && company ? copy({ ...session, user: { ...user, company } }) : null;
    },
    async raise(sessionId, amr, authTime) {
      const session = byId(sessionId);
      if (!session || session.endedAt) return false;
      Object.assign(session, { amr: [...amr], authTime });
      return true;
    },
    async end(sessionId, now) {
      endWhere((session) => session.id === sessionId, now);
    },
    endAll: async (userId, now, keepId) =>
      endWhere((session) => session.userId === userId && session.id !== keepId, now),
    async endUpstream(match, now) {
      const ended = [...rows.values()].filter(
        (session) =>
          !session.endedAt &&
          session.upstreamIssuer === match.issuer &&
          (match.sid === undefined || session.upstreamSid === match.sid) &&
          linkedAsMatched(tables, session.userId, match),
      );
      for (const session of ended) session.endedAt = now;
      return ended.map(({ id, userId }) => ({ id, userId }));
    },
    endOne: async (userId, sessionId, now) =>
      endWhere((session) => session.id === sessionId && session.userId === userId, now).length === 1,
    async touch(sessionId, now, everyMs) {
      const session = byId(sessionId);
      if (session && session.lastSeenAt.getTime() < now.getTime() - everyMs) session.lastSeenAt = now;
    },
    async rememberClient(sessionId, clientId) {
      tables.sessionClients.add(`${sessionId}\n${clientId}`);
    },
    async listClients(sessionIds) {
      return [...tables.sessionClients].flatMap((key) => {
        const [sessionId, clientId] = key.split("\n");
        const session = sessionIds.includes(sessionId) ? byId(sessionId) : undefined;
        return session ? [{ sessionId, clientId, userId: session.userId }] : [];
      });
    },
    async countCurrent(now, companyId) {
      return [...rows.values()].filter(
        (session) =>
          !session.endedAt &&
          session.expiresAt > now &&
          (companyId === undefined || tables.users.get(session.userId)?.companyId === companyId),
      ).length;
    },
    async listCurrent(userId, now) {
      return [...rows.values()]
        .filter((session) => session.userId === userId && !session.endedAt && session.expiresAt > now)
        .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || a.id.localeCompare(b.id))
        .map(({ id, createdAt, lastSeenAt, ipAddress, userAgent }) => ({
          id,
          createdAt,
          lastSeenAt,
          ipAddress,
          userAgent,
        }));
    },
  };
}
