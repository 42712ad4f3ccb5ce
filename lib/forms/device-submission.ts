/**
 * POST /interaction/device: the forms of /device (lib/rights/device-approval.ts). Without `decision` the person
 * enters the code a device shows; a right one leads on to that request's confirmation, named by a ticket for this
 * session. With `decision` (allow, with the ticked scopes, or deny) the request is decided once. A visitor is sent to
 * sign in, a session that owes its company's second factor to give one, each coming back to /device afterwards.
 */
import { clientAddress } from "@/lib/http/client-address";
import { readForm } from "@/lib/http/form-body";
import { PAGES } from "@/lib/http/paths";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import { AccessDenied, actorOfRequest, type Actor } from "@/lib/rights/actor";
import { decideDeviceRequest, enterUserCode } from "@/lib/rights/device-approval";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

/** The longest code kept in the URL of the page that shows a refusal: a user code fits with room for punctuation. */
const MAX_SHOWN_CODE = 20;

const backToDevice = (params: Record<string, string | undefined>) => seeOther(pageUrl(PAGES.device, params));

async function enterCode(actor: Actor, typed: string, address: string | undefined): Promise<Response> {
  const entry = await enterUserCode(actor, typed, address);
  if ("ticket" in entry) return backToDevice({ request: entry.ticket });
  const minutes = entry.refused === "throttled" ? String(Math.ceil(entry.retryAfterSeconds / 60)) : undefined;
  return backToDevice({ error: entry.refused, minutes, user_code: typed.slice(0, MAX_SHOWN_CODE) });
}

async function decide(actor: Actor, form: URLSearchParams, address: string | undefined): Promise<Response> {
  const ticked = form.get("decision") === "allow" ? form.getAll("scope") : "deny";
  const outcome = await decideDeviceRequest(actor, form.get("request") ?? "", ticked, address);
  return backToDevice(outcome ? { done: outcome } : { error: "expired" });
}

export async function handleDeviceSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  const form = await readForm(request);
  const typed = (form.get("user_code") ?? "").trim();
  const returnUrl = typed ? pageUrl(PAGES.device, { user_code: typed.slice(0, MAX_SHOWN_CODE) }) : PAGES.device;
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return backToDevice({ error: "form_expired", user_code: typed.slice(0, MAX_SHOWN_CODE) || undefined });
  const address = clientAddress(request, config.trustedProxies);
  try {
    return form.has("decision") ? await decide(actor, form, address) : await enterCode(actor, typed, address);
  } catch (error) {
    if (!(error instanceof AccessDenied)) throw error;
    if (error.code === "second_factor_required")
      return seeOther(pageUrl(PAGES.security, { enrol: "required", returnUrl }));
    return seeOther(pageUrl(PAGES.login, { returnUrl }));
  }
}
