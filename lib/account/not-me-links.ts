/**
 * The "not me" link of a sign-in notice (lib/account/sign-in-notices.ts): the token is the only right, so it is
 * checked here. A link is open until used or expired; one of a deactivated user or company, or one mailed to an
 * address the account no longer has (the old mailbox's), is unknown. Using it ends everything the account's sign-ins
 * left behind and, unless the company signs its people in only at its own provider, starts a password reset by mail:
 * the reset mail's own short-lived link, to the account's address, rather than a reset page opened by a link that
 * lives for days.
 */
import { LINK_TOKEN } from "@/lib/http/link-token-cookies";
import type { Locale } from "@/lib/i18n/locales";
import { sealDeferredMail } from "@/lib/mail/outbox";
import { isSsoOnlyAddress } from "@/lib/session/sso-only-address";
import type { SignInNotice } from "@/lib/store/models/sign-in-notice";
import type { SignInNoticeStore } from "@/lib/store/sign-in-notice-store";
import type { AccountContext } from "@/lib/account/account-context";
import { PASSWORD_RESET_MAIL } from "@/lib/account/password-reset";
import { randomBytes } from "node:crypto";
import { hashPassword } from "@/lib/crypto/password";

export type ClosedNotMeLink = "unknown" | "used" | "expired";

export type NotMeLinkState = { state: "open"; notice: SignInNotice } | { state: ClosedNotMeLink };

export async function readNotMeLink(
  notices: SignInNoticeStore,
  token: string | undefined,
  now = new Date(),
): Promise<NotMeLinkState> {
  if (!token || !LINK_TOKEN.test(token)) return { state: "unknown" };
  const notice = await notices.find(token);
  if (!notice || !notice.user.active || !notice.user.company.active || notice.sentTo !== notice.user.email)
    return { state: "unknown" };
  if (notice.usedAt) return { state: "used" };
  if (notice.expiresAt <= now) return { state: "expired" };
  return { state: "open", notice };
}

/**
 * "Not me": ends every session, refresh token, unused code and catalog ticket of the account, audited, and queues the
 * reset mail in the same commit (in the page's language). The ended sessions and whether a reset was started, or why
 * the link is closed (a concurrent use that came first makes it used).
 */
export async function disownSignIn(
  context: Pick<AccountContext, "stores" | "config">,
  token: string | undefined,
  request: { language: Locale; ipAddress?: string },
  now = new Date(),
): Promise<{ endedSessions: string[]; reset: boolean } | { closed: ClosedNotMeLink }> {
  const link = await readNotMeLink(context.stores.signInNotices, token, now);
  if (link.state !== "open") return { closed: link.state };
  const { notice } = link;
  const { user } = notice;
  const reset = !(await isSsoOnlyAddress(context.stores, user.email));
  const mail = reset
    ? [
        sealDeferredMail(context.config.secretKey, {
          kind: PASSWORD_RESET_MAIL,
          recipient: user.email,
          language: request.language,
          request: {},
        }),
      ]
    : [];
  const event = {
    type: "user.sign_in_disowned" as const,
    userId: user.id,
    companyId: user.companyId,
    ipAddress: request.ipAddress,
    details: { noticeId: notice.id, signedInAt: notice.signedInAt.toISOString(), passwordReset: reset },
  };
  // Whoever signed in knows the password: it stops working until the reset sets a new one (a hash of nothing anyone
  // knows, so that a sign-in with it costs what any other does).
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  const ended = await context.stores.signInNotices.disown(notice.id, user.id, { mail, event, passwordHash }, now);
  return ended ? { endedSessions: ended, reset } : { closed: "used" };
}
