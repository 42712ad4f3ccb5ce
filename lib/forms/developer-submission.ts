/**
 * POST /interaction/developer: the partner portal's registration form (by kind, or the JSON view), through
 * lib/rights/partner-portal.ts, with the checks of `clients add` and the vendor's rules. A registration is pending
 * until the operator approves it; a refusal goes back to the page with what was typed, in a sealed one-time cookie.
 */
import { actorOfRequest, AccessDenied } from "@/lib/rights/actor";
import { ClientMetadataError, isPartnerDeveloper, registerPartnerApp } from "@/lib/rights/partner-portal";
import { readForm } from "@/lib/http/form-body";
import { DEVELOPER_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { boundedOutcome, problemOf, type AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { isFormClientKind, metadataOfDraft, registrationDraft } from "@/lib/forms/client-registration-form";
import { pageUrl, plainRefusal, seeOther } from "@/lib/forms/see-other";
import { DEVELOPER_PATH } from "@/lib/pages/paths";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

export async function handleDeveloperSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind === "anonymous") return seeOther(pageUrl("/login", { returnUrl: DEVELOPER_PATH }));
  if (!isPartnerDeveloper(actor)) return plainRefusal(403, "Forbidden");
  const form = await readForm(request);
  if (form.get("action") !== "register") return plainRefusal(400, "unknown action");
  const kind = form.get("kind") ?? undefined;
  const draft = isFormClientKind(kind) ? registrationDraft(form, kind) : { metadata: form.get("metadata") ?? "" };
  const refused = (outcome: AdminFormOutcome) =>
    seeOther(`${DEVELOPER_PATH}#register`, [
      sealedCookie(DEVELOPER_FORM_COOKIE, boundedOutcome(outcome), {
        secretKey: config.secretKey,
        publicUrl: config.publicUrl,
        path: DEVELOPER_PATH,
      }),
    ]);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return refused({ action: "register", problem: { key: "expired" } });
  try {
    const metadata = isFormClientKind(kind) ? JSON.stringify(metadataOfDraft(draft, kind)) : (draft.metadata ?? "");
    const clientId = await registerPartnerApp(actor, metadata);
    return seeOther(pageUrl(DEVELOPER_PATH, { registered: clientId }));
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    if (error instanceof ClientMetadataError)
      return refused({
        action: "register",
        problem: problemOf("register", error, { byForm: isFormClientKind(kind) }),
        draft,
      });
    throw error;
  }
}
