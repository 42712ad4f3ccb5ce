/**
 * The server-side login session behind single sign-on: a random cookie value (lib/session/session-cookie.ts), stored
 * as its SHA-256 hash, valid for SESSION_LIFETIME_SECONDS after sign-in.
 */
import { MAX_USER_AGENT_LENGTH, SESSION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import type { Company, User } from "@/lib/db/rows";

export interface ActiveSession {
  id: string;
  authTime: Date;
  user: User & { company: Company };
}

export async function createLoginSession(
  db: Db,
  userId: string,
  client: { ipAddress?: string; userAgent?: string },
  now = new Date(),
): Promise<{ cookieValue: string; sessionId: string }> {
  const cookieValue = generateOpaqueToken();
  const session = await db.loginSession.create({
    data: {
      tokenHash: hashToken(cookieValue),
      userId,
      authTime: now,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000),
      ipAddress: client.ipAddress,
      userAgent: client.userAgent?.slice(0, MAX_USER_AGENT_LENGTH),
    },
  });
  return { cookieValue, sessionId: session.id };
}

/** The session named by the cookie value, if it is current and its user is active. */
export async function findActiveSession(
  db: Db,
  cookieValue: string | undefined,
  now = new Date(),
): Promise<ActiveSession | null> {
  if (!cookieValue) return null;
  const session = await db.loginSession.findUnique({
    where: { tokenHash: hashToken(cookieValue) },
    include: { user: { include: { company: true } } },
  });
  if (!session || session.endedAt || session.expiresAt <= now || !session.user.active) return null;
  return { id: session.id, authTime: session.authTime, user: session.user };
}
