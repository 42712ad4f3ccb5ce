/**
 * Sign-in notices: a sign-in from a browser new to the account (lib/session/known-browsers.ts) mails the account's
 * address where the company has notices on (lib/session/sign-in-notice-rule.ts). The mail, in the user's language,
 * says when, with which browser and from which address, and holds a one-time "not me" link (256 bits; only the
 * SHA-256 is kept, never logged) that works for SIGN_IN_NOTICE_LINK_DAYS while the account still has the address it
 * went to.
 */
import { SIGN_IN_NOTICE_LINK_DAYS } from "@/lib/config/policy";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { ENDPOINTS } from "@/lib/http/paths";
import type { Locale } from "@/lib/i18n/locales";
import { renderAccountMail } from "@/lib/mail/account-mail";
import { sealMail } from "@/lib/mail/outbox";
import type { UserWithCompany } from "@/lib/store/models/user";
import type { AccountContext } from "@/lib/account/account-context";
import { describeUserAgent } from "@/lib/account/own-sessions";

const NEW_SIGN_IN_MAIL = "new_sign_in";

/** A sign-in as the session recorded it. */
export interface SignInSession {
  user: UserWithCompany;
  authTime: Date;
  ipAddress: string | null;
  userAgent: string | null;
}

/** Mails the notice of the sign-in, with its "not me" link, to the account's address (stored and queued as one). */
export async function queueSignInNotice(
  context: Pick<AccountContext, "stores" | "config">,
  signIn: SignInSession,
  language: Locale,
  now = new Date(),
): Promise<void> {
  const { publicUrl, secretKey } = context.config;
  const { user } = signIn;
  const token = generateOpaqueToken();
  const url = `${publicUrl}${ENDPOINTS.notMe}?${new URLSearchParams({ token, ui_locales: language })}`;
  const content = await renderAccountMail(language, {
    kind: NEW_SIGN_IN_MAIL,
    url,
    email: user.email,
    days: SIGN_IN_NOTICE_LINK_DAYS,
    signedInAt: signIn.authTime,
    browser: describeUserAgent(signIn.userAgent),
    ipAddress: signIn.ipAddress,
  });
  const notice = {
    userId: user.id,
    sentTo: user.email,
    signedInAt: signIn.authTime,
    ipAddress: signIn.ipAddress ?? undefined,
    userAgent: signIn.userAgent ?? undefined,
    expiresAt: new Date(now.getTime() + SIGN_IN_NOTICE_LINK_DAYS * 86_400_000),
  };
  const mail = sealMail(secretKey, { kind: NEW_SIGN_IN_MAIL, recipient: user.email, language, content });
  await context.stores.signInNotices.save(token, notice, mail, now);
}
