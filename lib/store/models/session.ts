/** Sign-in sessions behind single sign-on, as the stores return them. */
import type { AuthenticationMethod } from "@/lib/store/models/authentication";
import type { UserWithCompany } from "@/lib/store/models/user";

export interface LoginSession {
  id: string;
  userId: string;
  authTime: Date;
  /** How the user signed in (RFC 8176). */
  amr: AuthenticationMethod[];
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  ipAddress: string | null;
  userAgent: string | null;
  user: UserWithCompany;
}

/** A current session as its user sees it in the list of their sign-ins. */
export type ListedSession = Pick<LoginSession, "id" | "createdAt" | "lastSeenAt" | "ipAddress" | "userAgent">;

/** A client a session signed in to, with the session's user. */
export interface SessionClient {
  sessionId: string;
  clientId: string;
  userId: string;
}
