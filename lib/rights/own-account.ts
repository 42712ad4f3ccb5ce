/**
 * The signed-in user's own password, email address and sessions (the profile and security pages). Every function
 * acts for the user of the session and touches only their account; sessions ended here are announced to the
 * applications that registered a back-channel logout.
 */
import "server-only";
import type { Locale } from "@/lib/i18n/locales";
import { isFreshSignIn } from "@/lib/account/current-password";
import { requestEmailChange } from "@/lib/account/email-change";
import { endOtherOwnSessions, endOwnSession, listOwnSessions, type OwnSession } from "@/lib/account/own-sessions";
import { changeOwnPassword, type PasswordChange } from "@/lib/account/password-change";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { requireSessionFor, requireUser, type Actor, type SessionPerson } from "@/lib/rights/actor";

export type { OwnSession };
export { EmailChangeError } from "@/lib/account/email-change";
export { PersonFieldError } from "@/lib/admin/person-fields";
export { PasswordPolicyError } from "@/lib/crypto/password-policy";

export async function changePassword(
  actor: Actor,
  request: { current: string; next: string; language: Locale; ipAddress?: string; signOutElsewhere: boolean },
): Promise<PasswordChange> {
  const { context, session, company } = requireUser(actor);
  const outcome = await changeOwnPassword(
    context,
    { user: session.user, companyName: company.name, sessionId: session.id },
    request,
  );
  if (outcome.ok) {
    wakeMailDelivery();
    await announceBackchannelLogout(context, outcome.endedSessions);
  }
  return outcome;
}

/** Sends the confirmation link to the new address; the address as it will be stored. */
export async function askForEmailChange(
  actor: Actor,
  request: { newEmail: string; currentPassword?: string; language: Locale; ipAddress?: string },
): Promise<string> {
  const { context, session } = requireUser(actor);
  const newEmail = await requestEmailChange(context, session, request);
  wakeMailDelivery();
  return newEmail;
}

/** Whether a change of the email address asks for the current password: the sign-in is older than five minutes. */
export function emailChangeNeedsPassword(actor: Actor): boolean {
  return !isFreshSignIn(requireUser(actor).session.authTime);
}

/** The new address waiting for its confirmation, if the user asked for one. */
export async function pendingEmailChange(actor: Actor): Promise<{ newEmail: string; expiresAt: Date } | null> {
  const { context, session } = requireUser(actor);
  const link = await context.stores.accountLinks.findOpen(session.user.id, "email_change", new Date());
  return link?.newEmail ? { newEmail: link.newEmail, expiresAt: link.expiresAt } : null;
}

export function ownSessions(actor: Actor): Promise<OwnSession[]> {
  const { context, session } = requireSessionFor(actor, "security_page");
  return listOwnSessions(context.stores.loginSessions, session.user.id, session.id);
}

async function ended(user: SessionPerson, sessionIds: string[], ipAddress: string | undefined): Promise<number> {
  if (sessionIds.length === 0) return 0;
  await user.context.stores.audit.record({
    type: "user.session_ended",
    userId: user.session.user.id,
    companyId: user.company.id,
    ipAddress,
    details: { sessions: sessionIds.length },
  });
  await announceBackchannelLogout(user.context, sessionIds);
  return sessionIds.length;
}

/** Ends one of the user's other sessions; how many ended (0: no such session of theirs, or the one in use). */
export async function endSession(actor: Actor, sessionId: string, ipAddress?: string): Promise<number> {
  const user = requireSessionFor(actor, "security_page");
  if (sessionId === user.session.id) return 0;
  return ended(
    user,
    await endOwnSession(user.context.stores.loginSessions, user.session.user.id, sessionId),
    ipAddress,
  );
}

/** Ends every session of the user but the one in use; how many ended. */
export async function endOtherSessions(actor: Actor, ipAddress?: string): Promise<number> {
  const user = requireSessionFor(actor, "security_page");
  return ended(
    user,
    await endOtherOwnSessions(user.context.stores.loginSessions, user.session.user.id, user.session.id),
    ipAddress,
  );
}
