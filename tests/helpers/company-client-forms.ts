/**
 * The API client forms of /portal/company (POST /interaction/company/clients) as a browser posts them, through the
 * route file, and the one-time outcome the answer sets, unsealed: what the page shows after the form.
 */
import type { CompanyClientOutcome } from "@/lib/forms/company-client-submission";
import { COMPANY_CLIENT_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { formRequest, SECRET_KEY, type UserAgent } from "./oauth-service";

export function companyClientOutcomeOf(response: Response): CompanyClientOutcome | undefined {
  const cookie = response.headers.getSetCookie().find((each) => each.startsWith(`${COMPANY_CLIENT_COOKIE}=`));
  const value = cookie && decodeURIComponent(cookie.slice(COMPANY_CLIENT_COOKIE.length + 1).split(";")[0]);
  return unsealedCookieValue<CompanyClientOutcome>(COMPANY_CLIENT_COOKIE, value, SECRET_KEY);
}

/** Posts the form with the agent's cookies and CSRF token (unless the form names its own). */
export async function postCompanyClients(agent: UserAgent, form: Record<string, string | string[]>) {
  const { POST } = await import("@/app/interaction/company/clients/route");
  const cookie = [...agent.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  const csrf: Record<string, string> = agent.cookies.size > 0 ? { [CSRF_FIELD]: agent.csrfToken } : {};
  const response = await POST(formRequest("/interaction/company/clients", { ...csrf, ...form }, { cookie }));
  return { response, outcome: companyClientOutcomeOf(response) };
}
