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
  /** Signed in through a company's provider: its issuer (the ID token's), and its session id when it named one. */
  upstreamIssuer: string | null;
  upstreamSid: string | null;
  user: UserWithCompany;
}

/** The company's provider a session is signed in through: the ID token's issuer and `sid` (when it has one). */
export interface UpstreamSession {
  issuer: string;
  sid?: string;
}

/**
 * The sessions a company's provider ends (a back-channel logout token): those signed in through its issuer, of the
 * people linked at it for the companies that registered it, narrowed to its person (`subject`), its session (`sid`),
 * or both.
 */
export type UpstreamLogoutMatch = { issuer: string; companyIds: string[] } & (
  { subject: string; sid?: string } | { subject?: string; sid: string }
);

/** A current session as its user sees it in the list of their sign-ins. */
export type ListedSession = Pick<LoginSession, "id" | "createdAt" | "lastSeenAt" | "ipAddress" | "userAgent">;

/** A client a session signed in to, with the session's user. */
export interface SessionClient {
  sessionId: string;
  clientId: string;
  userId: string;
}
