/**
 * POST /interaction/portal: the portal's forms. `action=revoke` takes back an application's access (consent, refresh
 * tokens and unused codes at once); `action=sign-out-everywhere` ends all of the user's login sessions.
 */
import { expireCookie } from "@/lib/http/cookies";
import { isFormRequest } from "@/lib/http/request-parameters";
import { pageUrl, seeOther } from "@/lib/interaction/see-other";
import { revokeConsent } from "@/lib/oauth/consent/revoke-consent";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { endAllLoginSessions } from "@/lib/session/end-sessions";
import { findActiveSession, isSecureOrigin, readSessionCookie, SESSION_COOKIE } from "@/lib/session/login-session";

export const PORTAL_PATH = "/portal/applications";

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
  if (action === "sign-out-everywhere") {
    await endAllLoginSessions(db, session.user.id);
    return seeOther("/?signedOut=everywhere", [expireCookie(SESSION_COOKIE, { secure: isSecureOrigin(config.publicUrl) })]);
  }
  return seeOther(pageUrl(PORTAL_PATH, { error: "unknown_action" }));
}
