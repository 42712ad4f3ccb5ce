/**
 * POST /interaction/password/forgot and /interaction/password/reset: asking for a reset link (the same answer for
 * every address; under attack only with a proof of work, lib/proof-of-work/proof-gate.ts), and choosing the new password through the link, whose token the page's cookie holds. A reset
 * signs the person in and, in the browser that asked for the mail, continues to where the sign-in had been going
 * (an application's authorization request).
 */
import { PAGES } from "@/lib/http/paths";
import { parseEmail, PersonFieldError } from "@/lib/admin/person-fields";
import { clientAddress } from "@/lib/http/client-address";
import { expireCookie, isSecureOrigin, readCookie } from "@/lib/http/cookies";
import { readForm } from "@/lib/http/form-body";
import {
  expireLinkTokenCookie,
  linkCookieName,
  resetReturnCookie,
  resetReturnCookieName,
} from "@/lib/http/link-token-cookies";
import { safeLocalPath } from "@/lib/http/local-path";
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { afterLogin } from "@/lib/oauth/authorize/return-url";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { askForPasswordReset, PasswordPolicyError, resetPasswordAndSignIn } from "@/lib/rights/account-links";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { sessionCookie } from "@/lib/session/session-cookie";
import { pendingSignInCookie } from "@/lib/session/pending-sign-in";
import { passProofGate, proofFormError, PROOF_OF_WORK_FIELD } from "@/lib/proof-of-work/proof-gate";
import { recordPressure } from "@/lib/proof-of-work/pressure";

export async function handleForgotPasswordSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const returnUrl = safeLocalPath(form.get("returnUrl"));
  const back = (params: Record<string, string>, cookies: string[] = []) =>
    seeOther(pageUrl(PAGES.forgotPassword, { returnUrl, ...params }), cookies);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back({ error: "form_expired" });
  let email: string;
  try {
    email = parseEmail(form.get("email") ?? "");
  } catch (error) {
    if (error instanceof PersonFieldError) return back({ error: "invalid_email" });
    throw error;
  }
  const ipAddress = clientAddress(request, config.trustedProxies);
  const source = { address: ipAddress, account: email };
  const gate = await passProofGate(context, "password_reset", source, form.get(PROOF_OF_WORK_FIELD));
  if (gate !== "open") return back({ error: proofFormError(gate) });
  // Every request counts: a reset mails someone, which is what a mail-bomber is after.
  await recordPressure(context.stores.throttles, config.proofOfWork, source);
  const wait = await askForPasswordReset(context, { email, language: localeOfRequest(request), ipAddress });
  if (wait > 0) return back({ error: "throttled", minutes: String(Math.ceil(wait / 60)) });
  const wayBack = resetReturnCookie(returnUrl, config.publicUrl);
  return back({ sent: "1" }, wayBack ? [wayBack] : []);
}

export async function handleResetPasswordSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const back = (params: Record<string, string>) => seeOther(pageUrl(PAGES.resetPassword, params));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back({ error: "form_expired" });
  try {
    const reset = await resetPasswordAndSignIn(
      context,
      readCookie(request, linkCookieName(PAGES.resetPassword, config.publicUrl)),
      { password: form.get("password") ?? "", language: localeOfRequest(request) },
      {
        ipAddress: clientAddress(request, config.trustedProxies),
        userAgent: request.headers.get("user-agent") ?? undefined,
      },
    );
    if ("closed" in reset) return back({ closed: reset.closed });
    const secure = isSecureOrigin(config.publicUrl);
    const returnCookie = resetReturnCookieName(config.publicUrl);
    const next = safeLocalPath(readCookie(request, returnCookie)) ?? PAGES.portal;
    const done = [expireLinkTokenCookie(PAGES.resetPassword, config.publicUrl), expireCookie(returnCookie, { secure })];
    if (reset.next === "second_step")
      return seeOther(pageUrl(PAGES.secondFactor, { returnUrl: next }), [
        pendingSignInCookie(reset.userId, config),
        ...done,
      ]);
    return seeOther(afterLogin(next), [sessionCookie(reset.cookieValue, config.publicUrl), ...done]);
  } catch (error) {
    if (error instanceof PasswordPolicyError) return back({ error: error.code });
    throw error;
  }
}
