/**
 * The last step of every answer that can start a session (the route table puts the forms and callbacks that sign in
 * through it, lib/server/page-form-routes.ts): when the answer sets a new session cookie, whichever way led there (a
 * password, the second step, a passkey, a company's provider, a password reset, an invitation), the browser's
 * known-accounts cookie is read, the owner told of a browser new to the account (lib/rights/sign-in-notices.ts), and
 * the cookie set anew on the answer. A notice that cannot be written is logged and does not cost the sign-in: the
 * browser then stays unknown, so the next sign-in tries again.
 */
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { logger } from "@/lib/observability/logger";
import { noteSigningInBrowser } from "@/lib/rights/sign-in-notices";
import type { ServiceContext } from "@/lib/service-context";
import { knownAccountsOf } from "@/lib/session/known-browsers";
import { startedSessionCookie } from "@/lib/session/session-cookie";

export async function passSignInNoticeStep(
  request: Request,
  context: ServiceContext,
  answer: Response,
  startedAt: Date,
): Promise<Response> {
  const { config } = context;
  const sessionCookie = startedSessionCookie(answer, config.publicUrl);
  if (!sessionCookie) return answer;
  let cookie: string | undefined;
  try {
    cookie = await noteSigningInBrowser(context, {
      sessionCookie,
      knownAccounts: knownAccountsOf(request, config),
      language: localeOfRequest(request),
      startedAt,
    });
  } catch (error) {
    logger.error({ err: error }, "the sign-in notice step failed; the sign-in goes on");
  }
  if (!cookie) return answer;
  // A copy: some answers' headers cannot be changed (Response.redirect).
  const headers = new Headers(answer.headers);
  headers.append("Set-Cookie", cookie);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
