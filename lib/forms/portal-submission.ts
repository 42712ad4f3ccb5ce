/**
 * POST /interaction/portal: the portal's forms, for the signed-in user's own account (through lib/rights/portal.ts).
 * `action=revoke` takes back an application's access (consent, refresh tokens and unused codes at once);
 * `action=sign-out-everywhere` ends all of the user's login sessions; `action=set-language` stores the preferred
 * language (empty: follow the browser) and shows it at once.
 */
import { PAGES } from "@/lib/http/paths";
import { actorOfRequest } from "@/lib/rights/actor";
import { revokeApplication, setPreferredLanguage, signOutEverywhere } from "@/lib/rights/portal";
import { expireCookie, isSecureOrigin } from "@/lib/http/cookies";
import { readForm } from "@/lib/http/form-body";
import { languageCookie } from "@/lib/i18n/language-switch";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { expireSessionCookie } from "@/lib/session/session-cookie";

export async function handlePortalSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  const form = await readForm(request);
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.portal }));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(pageUrl(PAGES.portal, { error: "form_expired" }));

  const action = form.get("action");
  if (action === "revoke") {
    const clientId = form.get("client_id") ?? "";
    const revoked = await revokeApplication(actor, clientId);
    return seeOther(pageUrl(PAGES.portal, revoked ? { revoked: clientId } : { error: "not_found" }));
  }
  if (action === "set-language") {
    const language = form.get("preferred_language") ?? "";
    if (language !== "" && !isLocale(language)) return seeOther(pageUrl(PAGES.profile, { error: "unknown_action" }));
    await setPreferredLanguage(actor, language || null);
    return seeOther(
      pageUrl(PAGES.profile, { saved: "1" }),
      language
        ? [languageCookie(language, config.publicUrl)]
        : [expireCookie(LOCALE_COOKIE, { secure: isSecureOrigin(config.publicUrl), httpOnly: false })],
    );
  }
  if (action === "sign-out-everywhere") {
    const next = "/?signedOut=everywhere";
    const expired = expireSessionCookie(config.publicUrl);
    const frontchannel = await signOutEverywhere(actor, next);
    if (!frontchannel) return seeOther(next, [expired]);
    frontchannel.headers.append("Set-Cookie", expired);
    return frontchannel;
  }
  return seeOther(pageUrl(PAGES.portal, { error: "unknown_action" }));
}
