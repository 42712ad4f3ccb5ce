/** POST /interaction/signout: the sign-out page's confirmation. Signs out and follows the request's redirect rules. */
import { isFormRequest } from "@/lib/http/request-parameters";
import { seeOther } from "@/lib/interaction/see-other";
import { signOut } from "@/lib/oauth/endsession/end-session-endpoint";
import { readEndSessionRequest } from "@/lib/oauth/endsession/end-session-request";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { findActiveSession, readSessionCookie } from "@/lib/session/login-session";

export async function handleSignOutSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const form = isFormRequest(request) ? new URLSearchParams(await request.text()) : new URLSearchParams();
  if (!isValidCsrfSubmission(request, form, context.config.secretKey, context.config.publicUrl) || form.get("decision") !== "logout") {
    return seeOther(`/signout?error=form_expired`);
  }
  const session = await findActiveSession(context.db, readSessionCookie(request));
  return signOut(context, session, await readEndSessionRequest(context, form), 303);
}
