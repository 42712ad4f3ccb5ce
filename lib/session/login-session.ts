/**
 * The server-side login session behind single sign-on: a random cookie value (lib/session/session-cookie.ts), stored
 * as its SHA-256 hash (lib/store/login-session-store.ts), valid for SESSION_LIFETIME_SECONDS after sign-in.
 */
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { Company, User } from "@/lib/store/models/user";
import type { LoginSessionStore } from "@/lib/store/login-session-store";
import { PASSWORD_ONLY, type AuthenticationMethod } from "@/lib/store/models/authentication";
import type { UpstreamSession } from "@/lib/store/models/session";
import type { Stores } from "@/lib/store/stores";
import { noteUser } from "@/lib/observability/request-context";
import type { AuditDetails } from "@/lib/store/models/audit-details";

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
  loginSessions: LoginSessionStore,
  userId: string,
  client: { ipAddress?: string; userAgent?: string },
  amr: readonly AuthenticationMethod[],
  upstream?: UpstreamSession,
  now = new Date(),
): Promise<{ cookieValue: string; sessionId: string }> {
  const cookieValue = generateOpaqueToken();
  const sessionId = await loginSessions.save(cookieValue, userId, client, now, amr, upstream);
  return { cookieValue, sessionId };
}

/** The session named by the cookie value, if it is current and its user is active (noted for the request's log). */
export async function findActiveSession(
  loginSessions: LoginSessionStore,
  cookieValue: string | undefined,
  now = new Date(),
): Promise<ActiveSession | null> {
  if (!cookieValue) return null;
  const session = await loginSessions.find(cookieValue);
  if (!session || session.endedAt || session.expiresAt <= now || !session.user.active) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS)
    await loginSessions.touch(session.id, now, LAST_SEEN_RESOLUTION_MS);
  noteUser(session.user.id);
  return { id: session.id, authTime: session.authTime, amr: session.amr, user: session.user };
}

/**
 * Signs the user in: a new login session with the methods used (`amr`, a password alone unless said otherwise) and
 * the company's provider it came through (`upstream`, whose back-channel logout ends it), audited as a sign-in with
 * what led to it (`details`), in the trail of the user's company when the caller has it at hand; the user goes in
 * the request's log.
 */
export async function signInUser(
  stores: Pick<Stores, "loginSessions" | "audit">,
  user: { id: string; companyId?: string },
  client: { ipAddress?: string; userAgent?: string },
  details: AuditDetails = {},
  amr: readonly AuthenticationMethod[] = PASSWORD_ONLY,
  upstream?: UpstreamSession,
): Promise<{ cookieValue: string; sessionId: string }> {
  const session = await createLoginSession(stores.loginSessions, user.id, client, amr, upstream);
  noteUser(user.id);
  await stores.audit.record({
    type: "sign_in.succeeded",
    userId: user.id,
    companyId: user.companyId,
    ipAddress: client.ipAddress,
    details: { sessionId: session.sessionId, amr, ...details },
  });
  return session;
}
