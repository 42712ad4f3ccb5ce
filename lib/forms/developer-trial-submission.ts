/**
 * "Try sign-in" on the partner portal (lib/rights/developer-trial.ts): POST /interaction/developer/try starts it, GET
 * /portal/developer/callback finishes it and shows the result on the application's page in a one-time cookie. A
 * callback that is not the signed-in developer's own trial gets a 403 and shows nothing; the trial's cookie ends
 * either way. The callback's URL carries a code: its answer sends no Referer on.
 */
import { MAX_CLIENT_ID_LENGTH } from "@/lib/config/policy";
import { readForm } from "@/lib/http/form-body";
import { DEVELOPER_TRIAL_COOKIE } from "@/lib/http/flash-cookies";
import { PAGES } from "@/lib/http/paths";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { AccessDenied, actorOfRequest, pageLanguageOf } from "@/lib/rights/actor";
import {
  DeveloperTrialError,
  endDeveloperTrialCookie,
  finishDeveloperTrial,
  startDeveloperTrial,
} from "@/lib/rights/developer-trial";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

const applicationPage = (clientId: string) => `${PAGES.developer}/${encodeURIComponent(clientId)}`;

export async function handleDeveloperTrialStart(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.developer }));
  const form = await readForm(request);
  const clientId = form.get("client_id");
  if (typeof clientId !== "string" || clientId.length === 0 || clientId.length > MAX_CLIENT_ID_LENGTH)
    return plainRefusal(400, "client_id is missing");
  const page = applicationPage(clientId);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(`${pageUrl(page, { trial: "form_expired" })}#try`);
  try {
    const { location, cookie } = await startDeveloperTrial(actor, clientId, pageLanguageOf(actor, request));
    return seeOther(location, [cookie]);
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    if (error instanceof DeveloperTrialError) return seeOther(`${pageUrl(page, { trial: error.code })}#try`);
    throw error;
  }
}

export async function handleDeveloperTrialCallback(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const result = await finishDeveloperTrial(context, request);
  const end = endDeveloperTrialCookie(config.publicUrl);
  const answer = result
    ? seeOther(`${applicationPage(result.clientId)}#try`, [
        sealedCookie(DEVELOPER_TRIAL_COOKIE, result, { ...config, path: PAGES.developer }),
        end,
      ])
    : plainRefusal(403, "This sign-in was not started by you in this browser, or it is over: start it again.");
  if (!result) answer.headers.append("Set-Cookie", end);
  answer.headers.set("Referrer-Policy", "no-referrer");
  return answer;
}
