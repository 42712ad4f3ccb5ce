/**
 * Sign-in notices and their "not me" links. Noting a browser is for the session a response has just started: its
 * cookie value is the right, and only that session's user is looked at. The "not me" page and form are public: the
 * link's token is the right (lib/account/not-me-links.ts), and the page shows only the sign-in it was mailed about.
 */
import "server-only";
import { disownSignIn, readNotMeLink, type ClosedNotMeLink } from "@/lib/account/not-me-links";
import { describeUserAgent } from "@/lib/account/own-sessions";
import { queueSignInNotice } from "@/lib/account/sign-in-notices";
import { localeOr, type Locale } from "@/lib/i18n/locales";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import type { ServiceContext } from "@/lib/service-context";
import { knowsAccount, rememberAccountCookie } from "@/lib/session/known-browsers";
import { signInNoticesOn } from "@/lib/session/sign-in-notice-rule";

export type { ClosedNotMeLink };

/** A sign-in a response has just started in a browser. */
export interface BrowserSignIn {
  /** the new session's cookie value */
  sessionCookie: string;
  /** the accounts the browser signed in to before (its known-browser cookie) */
  knownAccounts: string[];
  /** the page's language, for an account that has chosen none */
  language: Locale;
  /**
   * When the request began: an account made since (an accepted invitation, a new person of a company's provider) is
   * at its first sign-in, which the browser remembers and nobody is told of.
   */
  startedAt: Date;
}

/**
 * Tells the account's owner of a sign-in from a browser new to the account, where their company has notices on, and
 * has the browser remember the account: the known-browser cookie to set, or nothing for a session that is not current.
 */
export async function noteSigningInBrowser(
  context: ServiceContext,
  signIn: BrowserSignIn,
): Promise<string | undefined> {
  const session = await context.stores.loginSessions.find(signIn.sessionCookie);
  if (!session || session.endedAt || !session.user.active) return undefined;
  const { user } = session;
  // Made by this request (an invitation accepted, a company's provider's new person): both times are the app's clock,
  // and an account that signs in had to exist before the request began to check its password.
  const firstSignIn = user.createdAt >= signIn.startedAt;
  if (!firstSignIn && !knowsAccount(signIn.knownAccounts, user.id) && signInNoticesOn(user.company)) {
    await queueSignInNotice(context, session, localeOr(user.preferredLanguage, signIn.language));
    wakeMailDelivery();
  }
  return rememberAccountCookie(signIn.knownAccounts, user.id, context.config);
}

/** What the "not me" page shows: the sign-in the open link tells of, or why the link is closed. */
export async function notMeLinkOf(
  context: ServiceContext,
  token: string | undefined,
): Promise<
  | { state: "open"; email: string; signedInAt: Date; browser: string | null; ipAddress: string | null }
  | { state: ClosedNotMeLink }
> {
  const link = await readNotMeLink(context.stores.signInNotices, token);
  if (link.state !== "open") return link;
  const { notice } = link;
  const browser = describeUserAgent(notice.userAgent);
  return {
    state: "open",
    email: notice.user.email,
    signedInAt: notice.signedInAt,
    browser,
    ipAddress: notice.ipAddress,
  };
}

/**
 * "Not me" through an open link: everything the account's sign-ins left behind ends (their applications are told) and
 * the reset mail goes out; whether a reset was started, or why the link is closed.
 */
export async function disownSignInByLink(
  context: ServiceContext,
  token: string | undefined,
  request: { language: Locale; ipAddress?: string },
): Promise<{ reset: boolean } | { closed: ClosedNotMeLink }> {
  const outcome = await disownSignIn(context, token, request);
  if ("closed" in outcome) return outcome;
  wakeMailDelivery();
  await announceBackchannelLogout(context, outcome.endedSessions);
  return { reset: outcome.reset };
}
