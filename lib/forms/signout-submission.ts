/** POST /interaction/signout: the sign-out page's confirmation. Signs out and follows the request's redirect rules. */
import { PAGES } from "@/lib/http/paths";
import { actorOfRequest, requireSessionFor } from "@/lib/rights/actor";
import { readForm } from "@/lib/http/form-body";
import { seeOther } from "@/lib/http/see-other";
import { signOut } from "@/lib/oauth/endsession/end-session-endpoint";
import { afterSignOut, readEndSessionRequest } from "@/lib/oauth/endsession/end-session-request";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

export async function handleSignOutSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const form = await readForm(request);
  if (
    !isValidCsrfSubmission(request, form, context.config.secretKey, context.config.publicUrl) ||
    form.get("decision") !== "logout"
  ) {
    return seeOther(`${PAGES.signOut}?error=form_expired`);
  }
  const actor = await actorOfRequest(context, request);
  return signOut(
    context,
    actor.kind === "anonymous" || actor.kind === "token" ? null : requireSessionFor(actor, "sign_out").session,
    afterSignOut(await readEndSessionRequest(context, form)),
    303,
  );
}
