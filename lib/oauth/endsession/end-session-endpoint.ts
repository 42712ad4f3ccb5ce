/**
 * GET|POST /connect/endsession. With a valid id_token_hint for the signed-in user (or when nobody is signed in) the
 * user is signed out at once and sent to the post-logout URI; otherwise OptiGate's sign-out page asks first.
 */
import { PAGES } from "@/lib/http/paths";
import { isFormRequest, readBodyText } from "@/lib/http/form-body";
import { announceLogout } from "@/lib/oauth/endsession/channel-logout";
import {
  afterSignOut,
  END_SESSION_PARAMETERS,
  readEndSessionRequest,
} from "@/lib/oauth/endsession/end-session-request";
import type { ServiceContext } from "@/lib/service-context";
import { findActiveSession, type ActiveSession } from "@/lib/session/login-session";
import { expireSessionCookie, readSessionCookie } from "@/lib/session/session-cookie";

/**
 * Ends the session (if any), tells the clients it signed in to, and sends the browser to `next` (where the sign-out
 * request leads, or a fresh login): a redirect, or first the front-channel logout page when a client registered one.
 */
export async function signOut(
  context: ServiceContext,
  session: ActiveSession | null,
  next: string,
  status: 302 | 303,
): Promise<Response> {
  if (session) await context.stores.loginSessions.end(session.id, new Date());
  const frontchannel = session ? await announceLogout(context, [session.id], next) : undefined;
  const response =
    frontchannel ?? new Response(null, { status, headers: { Location: next, "Cache-Control": "no-store" } });
  response.headers.append("Set-Cookie", expireSessionCookie(context.config.publicUrl));
  return response;
}

export async function handleEndSessionRequest(httpRequest: Request, context: ServiceContext): Promise<Response> {
  const params =
    httpRequest.method === "POST" && isFormRequest(httpRequest)
      ? new URLSearchParams(await readBodyText(httpRequest))
      : new URL(httpRequest.url).searchParams;
  const request = await readEndSessionRequest(context, params);
  const session = await findActiveSession(
    context.stores.loginSessions,
    readSessionCookie(httpRequest, context.config.publicUrl),
  );
  if (request.hint && (!session || session.user.id === request.hint.subject))
    return signOut(context, session, afterSignOut(request), 302);
  const kept = new URLSearchParams(
    END_SESSION_PARAMETERS.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])),
  );
  return new Response(null, {
    status: 302,
    headers: { Location: `${PAGES.signOut}?${kept}`, "Cache-Control": "no-store" },
  });
}
