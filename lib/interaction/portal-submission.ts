/**
 * POST /interaction/portal: the portal's forms. `action=revoke` takes back an application's access (consent, refresh
 * tokens and unused codes at once); `action=sign-out-everywhere` ends all of the user's login sessions;
 * `action=set-language` stores the preferred language (empty: follow the browser) and shows it at once.
 */
import { expireCookie } from "@/lib/http/cookies";
import { languageCookie } from "@/lib/i18n/language-switch";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { forgetUser } from "@/lib/oauth/users/user-store";
import { isFormRequest } from "@/lib/http/request-parameters";
import { pageUrl, seeOther } from "@/lib/interaction/see-other";
import { revokeConsent } from "@/lib/oauth/consent/revoke-consent";
import { announceLogout } from "@/lib/oauth/endsession/channel-logout";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { endAllLoginSessions } from "@/lib/session/end-sessions";
import { findActiveSession, isSecureOrigin, readSessionCookie, SESSION_COOKIE } from "@/lib/session/login-session";

export const PORTAL_PATH = "/portal/applications";
export const PROFILE_PATH = "/portal/profile";

export async function handlePortalSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { db, config } = context;
  const form = isFormRequest(request) ? new URLSearchParams(await request.text()) : new URLSearchParams();
  const session = await findActiveSession(db, readSessionCookie(request));
  if (!session) return seeOther(pageUrl("/login", { returnUrl: PORTAL_PATH }));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return seeOther(pageUrl(PORTAL_PATH, { error: "form_expired" }));

  const action = form.get("action");
  if (action === "revoke") {
    const clientId = form.get("client_id") ?? "";
    const revoked = await revokeConsent(db, session.user.id, clientId);
    return seeOther(pageUrl(PORTAL_PATH, revoked ? { revoked: clientId } : { error: "not_found" }));
  }
  if (action === "set-language") {
    const language = form.get("preferred_language") ?? "";
    if (language !== "" && !isLocale(language)) return seeOther(pageUrl(PROFILE_PATH, { error: "unknown_action" }));
    await db.user.update({ where: { id: session.user.id }, data: { preferredLanguage: language || null } });
    forgetUser(session.user.id);
    return seeOther(pageUrl(PROFILE_PATH, { saved: "1" }), language ? [languageCookie(language, config.publicUrl)] : [expireCookie(LOCALE_COOKIE, { secure: isSecureOrigin(config.publicUrl), httpOnly: false })]);
  }
  if (action === "sign-out-everywhere") {
    const ended = await endAllLoginSessions(db, session.user.id);
    const expired = expireCookie(SESSION_COOKIE, { secure: isSecureOrigin(config.publicUrl) });
    const frontchannel = await announceLogout(context, ended, "/?signedOut=everywhere");
    if (!frontchannel) return seeOther("/?signedOut=everywhere", [expired]);
    frontchannel.headers.append("Set-Cookie", expired);
    return frontchannel;
  }
  return seeOther(pageUrl(PORTAL_PATH, { error: "unknown_action" }));
}
