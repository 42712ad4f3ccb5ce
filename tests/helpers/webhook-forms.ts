/**
 * The webhook forms of /admin/webhooks (POST /interaction/admin) and of /portal/company (POST
 * /interaction/company/webhooks) as a browser posts them, through the route files, with the one-time outcome the
 * answer sets, unsealed: what the page after the form shows.
 */
import type { WebhookFormOutcome } from "@/lib/forms/webhook-form";
import { ADMIN_WEBHOOK_COOKIE, COMPANY_WEBHOOK_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { formRequest, SECRET_KEY, type UserAgent } from "./oauth-service";

type Form = Record<string, string | string[]>;

function outcomeOf(response: Response, name: string): WebhookFormOutcome | undefined {
  const cookie = response.headers.getSetCookie().find((each) => each.startsWith(`${name}=`));
  const value = cookie && decodeURIComponent(cookie.slice(name.length + 1).split(";")[0]);
  return unsealedCookieValue<WebhookFormOutcome>(name, value, SECRET_KEY);
}

/** Posts a form with the agent's cookies and CSRF token (unless the form names its own, or the agent has none). */
async function post(
  agent: UserAgent,
  path: string,
  route: () => Promise<(request: Request) => Promise<Response>>,
  form: Form,
) {
  const cookie = [...agent.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  const csrf: Record<string, string> = agent.cookies.size > 0 ? { [CSRF_FIELD]: agent.csrfToken } : {};
  return (await route())(formRequest(path, { ...csrf, ...form }, { cookie, "x-forwarded-for": agent.address }));
}

/** One of the operator's webhook forms. */
export async function postAdminWebhooks(agent: UserAgent, form: Form) {
  const response = await post(
    agent,
    "/interaction/admin",
    async () => (await import("@/app/interaction/admin/route")).POST,
    form,
  );
  return { response, location: response.headers.get("location"), outcome: outcomeOf(response, ADMIN_WEBHOOK_COOKIE) };
}

/** One of the company page's webhook forms. */
export async function postCompanyWebhooks(agent: UserAgent, form: Form) {
  const response = await post(
    agent,
    "/interaction/company/webhooks",
    async () => (await import("@/app/interaction/company/webhooks/route")).POST,
    form,
  );
  return { response, location: response.headers.get("location"), outcome: outcomeOf(response, COMPANY_WEBHOOK_COOKIE) };
}
