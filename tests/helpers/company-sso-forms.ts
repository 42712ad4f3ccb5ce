/**
 * The company sign-in forms of /portal/company (POST /interaction/company/sso) as a browser posts them, and the
 * one-time outcome the answer sets, unsealed: what the page shows after the form.
 */
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import { handleCompanySsoSubmission } from "@/lib/forms/company-sso-submission";
import { COMPANY_SSO_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { getServiceContext, type ServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { formRequest, SECRET_KEY, type UserAgent } from "./oauth-service";

export function companySsoOutcomeOf(response: Response): CompanySsoOutcome | undefined {
  const cookie = response.headers.getSetCookie().find((each) => each.startsWith(`${COMPANY_SSO_COOKIE}=`));
  const value = cookie && decodeURIComponent(cookie.slice(COMPANY_SSO_COOKIE.length + 1).split(";")[0]);
  return unsealedCookieValue<CompanySsoOutcome>(COMPANY_SSO_COOKIE, value, SECRET_KEY);
}

/** Posts the form to the handler with the service context, as changed for the test (its DNS lookup, say). */
export async function postCompanySso(
  agent: UserAgent,
  form: Record<string, string>,
  changes: Partial<ServiceContext> = {},
) {
  const cookie = [...agent.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  const request = formRequest("/interaction/company/sso", { [CSRF_FIELD]: agent.csrfToken, ...form }, { cookie });
  const response = await handleCompanySsoSubmission(request, { ...getServiceContext(), ...changes });
  return { response, outcome: companySsoOutcomeOf(response) };
}
