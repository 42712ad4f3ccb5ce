/**
 * POST /interaction/second-factor: the second step's code form (an authenticator app's code or a recovery code), for
 * a pending sign-in or a step-up of the current session (lib/rights/second-step.ts). A right code continues where
 * the sign-in was going; a wrong one goes back to the step with the reason. Nobody at a step goes to the login.
 */
import { PAGES } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { readForm } from "@/lib/http/form-body";
import { safeLocalPath } from "@/lib/http/local-path";
import { afterLogin } from "@/lib/oauth/authorize/return-url";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { giveSecondFactorCode, SecondFactorError, stepSubject } from "@/lib/rights/second-step";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { endPendingSignInCookie, readPendingSignIn } from "@/lib/session/pending-sign-in";
import { readSessionCookie, sessionCookie } from "@/lib/session/session-cookie";

export async function handleSecondFactorSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const returnUrl = safeLocalPath(form.get("returnUrl")) ?? PAGES.home;
  const back = (error: string, extra: Record<string, string> = {}) =>
    seeOther(pageUrl(PAGES.secondFactor, { returnUrl, error, ...extra }));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return back("form_expired");
  const subject = await stepSubject(context, {
    pending: readPendingSignIn(request, config.publicUrl),
    session: readSessionCookie(request, config.publicUrl),
  });
  if (!subject) return seeOther(pageUrl(PAGES.login, { returnUrl }));
  try {
    const { cookieValue } = await giveSecondFactorCode(context, subject, form.get("code") ?? "", {
      ipAddress: clientAddress(request, config.trustedProxies),
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    const cookies = cookieValue
      ? [sessionCookie(cookieValue, config.publicUrl), endPendingSignInCookie(config.publicUrl)]
      : [];
    return seeOther(afterLogin(returnUrl), cookies);
  } catch (error) {
    if (!(error instanceof SecondFactorError)) throw error;
    return error.code === "throttled"
      ? back("throttled", { minutes: String(Math.ceil(error.retryAfterSeconds / 60)) })
      : back(error.code);
  }
}
