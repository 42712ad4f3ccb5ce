/**
 * The server-side login session behind single sign-on: a random cookie value (lib/session/session-cookie.ts), stored
 * as its SHA-256 hash (lib/store/login-session-store.ts), valid for SESSION_LIFETIME_SECONDS after sign-in.
 */
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { Db } from "@/lib/db/prisma";
import type { Company, User } from "@/lib/store/models/user";
import { findLoginSession, storeLoginSession, touchLoginSession } from "@/lib/store/login-session-store";
import { parseAmr, PASSWORD_ONLY, type AuthenticationMethod } from "@/lib/store/models/authentication";

/** How often a session's "last used" is written: at most once a minute, not on every page. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface ActiveSession {
  id: string;
  authTime: Date;
  /** how the user signed in (RFC 8176) */
  amr: AuthenticationMethod[];
  user: User & { company: Company };
}

async function createLoginSession(
  db: Db,
  userId: string,
  client: { ipAddress?: string; userAgent?: string },
  amr: readonly AuthenticationMethod[],
  now = new Date(),
): Promise<{ cookieValue: string; sessionId: string }> {
  const cookieValue = generateOpaqueToken();
  const sessionId = await storeLoginSession(db, cookieValue, userId, client, now, amr);
  return { cookieValue, sessionId };
}

/** The session named by the cookie value, if it is current and its user is active. */
export async function findActiveSession(
  db: Db,
  cookieValue: string | undefined,
  now = new Date(),
): Promise<ActiveSession | null> {
  if (!cookieValue) return null;
  const session = await findLoginSession(db, cookieValue);
  if (!session || session.endedAt || session.expiresAt <= now || !session.user.active) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS)
    await touchLoginSession(db, session.id, now, LAST_SEEN_RESOLUTION_MS);
  return { id: session.id, authTime: session.authTime, amr: parseAmr(session.amr), user: session.user };
}

/**
 * Signs the user in: a new login session with the methods used (`amr`, a password alone unless said otherwise),
 * audited as a sign-in with what led to it (`details`).
 */
export async function signInUser(
  db: Db,
  userId: string,
  client: { ipAddress?: string; userAgent?: string },
  details: Record<string, unknown> = {},
  amr: readonly AuthenticationMethod[] = PASSWORD_ONLY,
): Promise<{ cookieValue: string; sessionId: string }> {
  const session = await createLoginSession(db, userId, client, amr);
  await recordAuditEvent(db, {
    type: "sign_in.succeeded",
    userId,
    ipAddress: client.ipAddress,
    details: { sessionId: session.sessionId, amr, ...details },
  });
  return session;
}
