/**
 * GET and POST /login/not-me: the "not me" link of a sign-in notice (lib/rights/sign-in-notices.ts). A GET never
 * changes anything, as mail scanners open links before people do: opened with its token, the page moves the token
 * into its HttpOnly cookie and redirects to itself without it (as the proxy does for the other mailed links); then it
 * shows the sign-in the link tells of and a form. The form's POST (CSRF-checked) ends every session and refresh token
 * of the account and starts a password reset by mail, then shows what was done. A link that is unknown, used or
 * expired gets a localized page with a 4xx status, never a server error.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { readCookie } from "@/lib/http/cookies";
import { readForm } from "@/lib/http/form-body";
import { expireLinkTokenCookie, LINK_TOKEN, linkCookieName, linkTokenCookie } from "@/lib/http/link-token-cookies";
import { seeOther } from "@/lib/http/see-other";
import type { Locale } from "@/lib/i18n/locales";
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { disownSignInByLink, notMeLinkOf } from "@/lib/rights/sign-in-notices";
import type { ServiceContext } from "@/lib/service-context";
import { handlerPageCsrf, isValidCsrfSubmission } from "@/lib/session/csrf";
import { expireSessionCookie } from "@/lib/session/session-cookie";
import { notMePage } from "@/lib/forms/not-me-page";

const linkToken = (request: Request, publicUrl: string) =>
  readCookie(request, linkCookieName(ENDPOINTS.notMe, publicUrl));

/** The page for the link the browser holds: its sign-in and form (with a fresh CSRF cookie if needed), or why not. */
async function linkPage(
  request: Request,
  context: ServiceContext,
  language: Locale,
  problem?: { formExpired: true },
): Promise<Response> {
  const link = await notMeLinkOf(context, linkToken(request, context.config.publicUrl));
  if (link.state !== "open") return notMePage(language, { kind: "closed", state: link.state });
  const csrf = handlerPageCsrf(request, context.config);
  const page = await notMePage(language, { kind: "open", ...link, csrf: csrf.token, ...problem }, problem ? 403 : 200);
  if (csrf.cookie) page.headers.append("Set-Cookie", csrf.cookie);
  return page;
}

export async function handleNotMePage(request: Request, context: ServiceContext): Promise<Response> {
  const { publicUrl } = context.config;
  const query = new URL(request.url).searchParams;
  const token = query.get("token");
  if (token !== null) {
    query.delete("token");
    const location = query.size > 0 ? `${ENDPOINTS.notMe}?${query}` : ENDPOINTS.notMe;
    const cookie = LINK_TOKEN.test(token)
      ? linkTokenCookie(ENDPOINTS.notMe, token, publicUrl)
      : expireLinkTokenCookie(ENDPOINTS.notMe, publicUrl);
    return seeOther(location, [cookie]);
  }
  const language = localeOfRequest(request, { uiLocales: query.get("ui_locales") });
  const done = query.get("done");
  if (done === "reset" || done === "sso") return notMePage(language, { kind: "done", reset: done === "reset" });
  return linkPage(request, context, language);
}

export async function handleNotMeSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const language = localeOfRequest(request, { uiLocales: form.get("ui_locales") });
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return linkPage(request, context, language, { formExpired: true });
  const outcome = await disownSignInByLink(context, linkToken(request, config.publicUrl), {
    language,
    ipAddress: clientAddress(request, config.trustedProxies),
  });
  if ("closed" in outcome) return notMePage(language, { kind: "closed", state: outcome.closed });
  const done = new URLSearchParams({ done: outcome.reset ? "reset" : "sso", ui_locales: language });
  // This browser's own session, if it had one, ended with the others.
  return seeOther(`${ENDPOINTS.notMe}?${done}`, [
    expireLinkTokenCookie(ENDPOINTS.notMe, config.publicUrl),
    expireSessionCookie(config.publicUrl),
  ]);
}
