/**
 * POST /interaction/email: confirming a new email address through its mailed link (the token is in the page's
 * cookie). A confirmation button rather than the link itself makes the change, so that mail scanners that open
 * links cannot make it.
 */
import { PAGES } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { readCookie } from "@/lib/http/cookies";
import { readForm } from "@/lib/http/form-body";
import { expireLinkTokenCookie, linkCookieName } from "@/lib/http/link-token-cookies";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { confirmNewEmail } from "@/lib/rights/account-links";
import { readSessionCookie } from "@/lib/session/session-cookie";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

export async function handleEmailConfirmSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(pageUrl(PAGES.confirmEmail, { error: "form_expired" }));
  const token = readCookie(request, linkCookieName(PAGES.confirmEmail, config.publicUrl));
  const confirmed = await confirmNewEmail(context, token, {
    ipAddress: clientAddress(request, config.trustedProxies),
    sessionCookie: readSessionCookie(request, config.publicUrl),
  });
  if ("closed" in confirmed) return seeOther(pageUrl(PAGES.confirmEmail, { closed: confirmed.closed }));
  return seeOther(pageUrl(PAGES.confirmEmail, { done: "1" }), [
    expireLinkTokenCookie(PAGES.confirmEmail, config.publicUrl),
  ]);
}
