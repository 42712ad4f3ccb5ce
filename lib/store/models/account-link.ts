/** One-time links for a user's own account: a password reset, or the confirmation of a new address. */
import type { AuditEvent } from "@/lib/store/models/audit-event";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type { UserWithCompany } from "@/lib/store/models/user";

export type AccountLinkPurpose = "password_reset" | "email_change";

export interface NewAccountLink {
  userId: string;
  purpose: AccountLinkPurpose;
  newEmail?: string;
  /** The address the link is mailed to: it works only while the account has that address. */
  sentTo: string;
  expiresAt: Date;
}

export interface AccountLink {
  id: string;
  userId: string;
  purpose: AccountLinkPurpose;
  /** The stored hash of the link's value: a use must find the link still holding it (not replaced meanwhile). */
  tokenHash: string;
  newEmail: string | null;
  /** Null for links stored before the address was recorded. */
  sentTo: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  user: UserWithCompany;
}

/** The link a use is for, as it was read. */
export type LinkRef = Pick<AccountLink, "id" | "tokenHash" | "userId">;

/** What a change writes besides itself: the mail it sends and its audit event. */
export interface ChangeRecord {
  mail: NewOutboxMessage[];
  event: AuditEvent;
}
