/**
 * POST /interaction/invitation: the invitation page's form. Checks the CSRF token (and, under attack, a proof of
 * work: lib/proof-of-work/proof-gate.ts; a dead link counts towards that pressure), then accepts the invitation
 * (lib/rights/invitation-links.ts) and arrives signed in at the portal. A refused field goes back to the page with
 * the names typed in a sealed one-time cookie; a link that was used, revoked or has expired shows why.
 */
import { PAGES } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { INVITATION_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { localeOfRequest } from "@/lib/i18n/request-locale";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { joinAndSignIn, PasswordPolicyError, PersonFieldError } from "@/lib/rights/invitation-links";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { sessionCookie } from "@/lib/session/session-cookie";
import { passProofGate, proofFormError, PROOF_OF_WORK_FIELD } from "@/lib/proof-of-work/proof-gate";
import { recordPressure } from "@/lib/proof-of-work/pressure";

/** What the invitation page shows again after a refusal. */
export interface RefusedInvitationForm {
  problem: string;
  field?: string;
  givenName: string;
  familyName: string;
}

const MAX_KEPT_NAME = 100;

export async function handleInvitationSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const form = await readForm(request);
  const token = form.get("token") ?? undefined;
  const person = {
    givenName: form.get("given_name") ?? "",
    familyName: form.get("family_name") ?? "",
    password: form.get("password") ?? "",
    language: localeOfRequest(request),
  };
  const page = pageUrl(PAGES.invitation, { token: token && token.length <= 100 ? token : undefined });
  const refused = (problem: string, field?: string) =>
    seeOther(page, [
      sealedCookie(
        INVITATION_FORM_COOKIE,
        {
          problem,
          field,
          givenName: person.givenName.slice(0, MAX_KEPT_NAME),
          familyName: person.familyName.slice(0, MAX_KEPT_NAME),
        } satisfies RefusedInvitationForm,
        { secretKey: config.secretKey, publicUrl: config.publicUrl, path: PAGES.invitation },
      ),
    ]);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return refused("form_expired");
  const ipAddress = clientAddress(request, config.trustedProxies);
  const gate = await passProofGate(context, "invitation", { address: ipAddress }, form.get(PROOF_OF_WORK_FIELD));
  if (gate !== "open") return refused(proofFormError(gate));
  try {
    const joined = await joinAndSignIn(context, token, person, {
      ipAddress,
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    if ("closed" in joined) {
      await recordPressure(context.stores.throttles, config.proofOfWork, { address: ipAddress });
      return refused(joined.closed);
    }
    const next = joined.enrol ? pageUrl(PAGES.security, { enrol: "required", returnUrl: PAGES.portal }) : PAGES.portal;
    return seeOther(next, [sessionCookie(joined.cookieValue, config.publicUrl)]);
  } catch (error) {
    if (error instanceof PersonFieldError) return refused(error.code, error.field);
    if (error instanceof PasswordPolicyError) return refused(error.code, "password");
    throw error;
  }
}
