/** A notice mailed of a sign-in from a browser new to the account, with its one-time "not me" link. */
import type { UserWithCompany } from "@/lib/store/models/user";

export interface NewSignInNotice {
  userId: string;
  /** The address the notice is mailed to: its link works only while the account has that address. */
  sentTo: string;
  /** The sign-in it tells of. */
  signedInAt: Date;
  ipAddress?: string;
  userAgent?: string;
  expiresAt: Date;
}

export interface SignInNotice {
  id: string;
  userId: string;
  sentTo: string;
  signedInAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  user: UserWithCompany;
}
