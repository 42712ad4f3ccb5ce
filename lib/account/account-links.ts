/**
 * Reading a one-time account link (a password reset or an address confirmation): the token is the only right, so it
 * is checked here. A link is open until used or expired; a replaced link, another purpose's, one of a deactivated
 * user, or a reset link mailed to an address the account no longer has, is unknown.
 */
import { LINK_TOKEN } from "@/lib/http/link-token-cookies";
import type { AccountLinkStore } from "@/lib/store/account-link-store";
import type { AccountLink, AccountLinkPurpose } from "@/lib/store/models/account-link";

export type ClosedAccountLink = "unknown" | "used" | "expired";

export type AccountLinkState =
  | { state: "open"; id: string; tokenHash: string; user: AccountLink["user"]; newEmail: string | null }
  | { state: ClosedAccountLink };

export async function readAccountLink(
  links: AccountLinkStore,
  token: string | undefined,
  purpose: AccountLinkPurpose,
  now = new Date(),
): Promise<AccountLinkState> {
  if (!token || !LINK_TOKEN.test(token)) return { state: "unknown" };
  const link = await links.find(token);
  if (!link || link.purpose !== purpose || !link.user.active || !link.user.company.active) return { state: "unknown" };
  // A reset link mailed to an address the account no longer has is the old mailbox's, and is closed.
  if (purpose === "password_reset" && link.sentTo !== null && link.sentTo !== link.user.email)
    return { state: "unknown" };
  if (link.usedAt) return { state: "used" };
  if (link.expiresAt <= now) return { state: "expired" };
  return { state: "open", id: link.id, tokenHash: link.tokenHash, user: link.user, newEmail: link.newEmail };
}
