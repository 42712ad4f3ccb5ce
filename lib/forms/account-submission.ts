/**
 * POST /interaction/account: the signed-in user's own password, email address and sessions (the profile and security
 * pages), through lib/rights/own-account.ts. `action=change-password` (current_password, new_password, sign_out_elsewhere),
 * `action=change-email` (new_email; current_password when the sign-in is not fresh), `action=end-session` (session_id) and `action=end-other-sessions`. Each answers
 * with its page and what happened, or why not, in the query (never a password or an address).
 */
import { PAGES } from "@/lib/http/paths";
import { actorOfRequest, pageLanguageOf } from "@/lib/rights/actor";
import {
  askForEmailChange,
  changePassword,
  EmailChangeError,
  endOtherSessions,
  endSession,
  PasswordPolicyError,
  PersonFieldError,
} from "@/lib/rights/own-account";
import { clientAddress } from "@/lib/http/client-address";
import { readForm } from "@/lib/http/form-body";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

type Actor = Awaited<ReturnType<typeof actorOfRequest>>;

const minutes = (seconds: number) => String(Math.ceil(seconds / 60));
/** The language the profile page was shown in, which the notices it causes are written in. */
/**
 * The page's checkbox sends "yes" beside a hidden "no": unticked, only "no" arrives. A form without the field ends
 * the other sign-ins, as the safe choice.
 */
function signOutElsewhere(form: URLSearchParams): boolean {
  const values = form.getAll("sign_out_elsewhere");
  return values.length === 0 || values.includes("yes");
}

async function passwordChange(actor: Actor, form: URLSearchParams, request: Request, ipAddress?: string) {
  try {
    const elsewhere = signOutElsewhere(form);
    const outcome = await changePassword(actor, {
      current: form.get("current_password") ?? "",
      next: form.get("new_password") ?? "",
      language: pageLanguageOf(actor, request),
      ipAddress,
      signOutElsewhere: elsewhere,
    });
    if (outcome.ok) return { done: elsewhere ? "password" : "password-kept" };
    if (outcome.problem === "throttled")
      return { form: "password", error: "throttled", minutes: minutes(outcome.retryAfterSeconds) };
    return { form: "password", error: outcome.problem };
  } catch (error) {
    if (error instanceof PasswordPolicyError) return { form: "password", error: error.code };
    throw error;
  }
}

async function emailChange(actor: Actor, form: URLSearchParams, request: Request, ipAddress?: string) {
  try {
    await askForEmailChange(actor, {
      newEmail: form.get("new_email") ?? "",
      currentPassword: form.get("current_password") ?? undefined,
      language: pageLanguageOf(actor, request),
      ipAddress,
    });
    return { done: "email" };
  } catch (error) {
    if (error instanceof EmailChangeError && (error.code === "throttled" || error.code === "throttled_sign_in"))
      return {
        form: "email",
        error: error.code === "throttled" ? "throttled_email" : "throttled",
        minutes: minutes(error.retryAfterSeconds),
      };
    if (error instanceof PersonFieldError || error instanceof EmailChangeError)
      return { form: "email", error: error.code };
    throw error;
  }
}

export async function handleAccountSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  const form = await readForm(request);
  const action = form.get("action");
  const page = action === "end-session" || action === "end-other-sessions" ? PAGES.security : PAGES.profile;
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: page }));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(pageUrl(page, { error: "form_expired" }));
  const ipAddress = clientAddress(request, config.trustedProxies);
  if (action === "change-password")
    return seeOther(pageUrl(PAGES.profile, await passwordChange(actor, form, request, ipAddress)));
  if (action === "change-email")
    return seeOther(pageUrl(PAGES.profile, await emailChange(actor, form, request, ipAddress)));
  if (action === "end-session") {
    const ended = await endSession(actor, form.get("session_id") ?? "", ipAddress);
    return seeOther(pageUrl(PAGES.security, ended > 0 ? { ended: String(ended) } : { error: "not_found" }));
  }
  if (action === "end-other-sessions")
    return seeOther(pageUrl(PAGES.security, { ended: String(await endOtherSessions(actor, ipAddress)) }));
  return plainRefusal(400, "unknown action");
}
