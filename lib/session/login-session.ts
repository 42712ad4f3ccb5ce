/**
 * The server-side login session behind single sign-on: a random cookie value, stored as its SHA-256 hash, valid for
 * SESSION_LIFETIME_SECONDS after sign-in. The cookie is HttpOnly, SameSite=Lax, and Secure when OptiGate is served
 * over https.
 */
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import { readCookie, serializeCookie } from "@/lib/http/cookies";
import type { Db } from "@/lib/db/prisma";
import type { User } from "@/lib/db/generated/sqlite/client";

export const SESSION_COOKIE = "optigate_session";
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

export interface ActiveSession {
  id: string;
  authTime: Date;
  user: User;
}

export function isSecureOrigin(publicUrl: string): boolean {
  return publicUrl.startsWith("https:");
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
      userAgent: client.userAgent?.slice(0, 300),
    },
  });
  return { cookieValue, sessionId: session.id };
}

export function sessionCookie(cookieValue: string, publicUrl: string): string {
  return serializeCookie(SESSION_COOKIE, cookieValue, { secure: isSecureOrigin(publicUrl), maxAgeSeconds: SESSION_LIFETIME_SECONDS });
}

/** The session named by the cookie value, if it is current and its user is active. */
export async function findActiveSession(db: Db, cookieValue: string | undefined, now = new Date()): Promise<ActiveSession | null> {
  if (!cookieValue) return null;
  const session = await db.loginSession.findUnique({ where: { tokenHash: hashToken(cookieValue) }, include: { user: true } });
  if (!session || session.endedAt || session.expiresAt <= now || !session.user.active) return null;
  return { id: session.id, authTime: session.authTime, user: session.user };
}

export function readSessionCookie(request: Request): string | undefined {
  return readCookie(request, SESSION_COOKIE);
}
