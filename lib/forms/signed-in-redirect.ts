/**
 * Where a sign-in goes once its first step was right, whichever it was (a password, a company's provider): to the
 * second step with the pending sign-in cookie, to enrolment where the company requires a factor, or on into the flow
 * with the session cookie. One place, so both ways in continue alike.
 */
import { PAGES } from "@/lib/http/paths";
import { afterLogin } from "@/lib/oauth/authorize/return-url";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import type { SignedIn } from "@/lib/rights/sign-in";
import { pendingSignInCookie } from "@/lib/session/pending-sign-in";
import { sessionCookie } from "@/lib/session/session-cookie";

export function signedInRedirect(
  result: SignedIn,
  returnUrl: string,
  config: { secretKey: string; publicUrl: string },
  cookies: string[] = [],
): Response {
  if (result.next === "second_step")
    return seeOther(pageUrl(PAGES.secondFactor, { returnUrl }), [
      pendingSignInCookie(result.userId, config, new Date(), result.amr, result.upstream, result.link),
      ...cookies,
    ]);
  const session = sessionCookie(result.cookieValue, config.publicUrl);
  if (result.next === "enrol")
    return seeOther(pageUrl(PAGES.security, { enrol: "required", returnUrl: afterLogin(returnUrl) }), [
      session,
      ...cookies,
    ]);
  return seeOther(afterLogin(returnUrl), [session, ...cookies]);
}
