/**
 * POST /interaction/developer: the partner portal's forms (registering by kind or as JSON, changing and removing an
 * application, its secrets), through lib/rights/partner-portal.ts, with the checks of `clients add` and the vendor's
 * rules. A registration or change is pending until the operator approves it; a refusal goes back to the page with
 * what was typed, in a sealed one-time cookie.
 */
import { PAGES } from "@/lib/http/paths";
import { actorOfRequest, AccessDenied } from "@/lib/rights/actor";
import {
  addPartnerSecret,
  changePartnerApp,
  ClientMetadataError,
  ClientRegistryError,
  disablePartnerSecret,
  isPartnerDeveloper,
  registerPartnerApp,
  removePartnerApp,
} from "@/lib/rights/partner-portal";
import type { Actor } from "@/lib/rights/actor";
import { parseDay } from "@/lib/http/calendar-instant";
import { readForm } from "@/lib/http/form-body";
import { DEVELOPER_FORM_COOKIE, DEVELOPER_SECRET_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";

type SealOptions = Parameters<typeof sealedCookie>[2];
import { boundedOutcome, problemOf, type AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { isFormClientKind, metadataOfDraft, registrationDraft } from "@/lib/forms/client-registration-form";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

export interface NewPartnerSecret {
  clientId: string;
  secretId: string;
  secret: string;
}

const ACTIONS = ["register", "update", "remove", "secret-add", "secret-disable"] as const;
type DeveloperAction = (typeof ACTIONS)[number];

/** A day (the end of it, UTC) from a date input; undefined when empty; "invalid" when it is no date. */
function expiryOf(value: string | null): Date | undefined | "invalid" {
  if (!value) return undefined;
  return parseDay(value, "last-second") ?? "invalid";
}

/** The secret forms: a new one (shown once on the page after), or one disabled. */
async function secretAction(actor: Actor, form: URLSearchParams, cookie: SealOptions): Promise<Response> {
  const clientId = (form.get("client_id") ?? "").slice(0, 200);
  if (form.get("action") === "secret-disable") {
    await disablePartnerSecret(actor, clientId, (form.get("secret_id") ?? "").slice(0, 200));
    return seeOther(pageUrl(PAGES.developer, { saved: "1" }));
  }
  const expiresAt = expiryOf(form.get("expires"));
  if (expiresAt === "invalid") throw new ClientRegistryError("invalid_state", "the expiry is not a date");
  const created = await addPartnerSecret(actor, clientId, {
    description: form.get("description") || undefined,
    expiresAt,
  });
  const shown: NewPartnerSecret = { clientId, secretId: created.secretId, secret: created.secret };
  return seeOther(pageUrl(PAGES.developer, { saved: "1" }), [sealedCookie(DEVELOPER_SECRET_COOKIE, shown, cookie)]);
}

export async function handleDeveloperSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.developer }));
  if (!isPartnerDeveloper(actor)) return plainRefusal(403, "Forbidden");
  const form = await readForm(request);
  const action = ACTIONS.find((known) => known === form.get("action"));
  if (!action) return plainRefusal(400, "unknown action");
  const cookie = { secretKey: config.secretKey, publicUrl: config.publicUrl, path: PAGES.developer };
  const kind = form.get("kind") ?? undefined;
  const draft = isFormClientKind(kind) ? registrationDraft(form, kind) : { metadata: form.get("metadata") ?? "" };
  const clientId = (form.get("client_id") ?? "").slice(0, 200);
  const refused = (outcome: AdminFormOutcome) =>
    seeOther(refusalPage(action, clientId), [sealedCookie(DEVELOPER_FORM_COOKIE, boundedOutcome(outcome), cookie)]);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return refused({ action, problem: { key: "expired" } });
  try {
    switch (action) {
      case "register": {
        const metadata = isFormClientKind(kind) ? JSON.stringify(metadataOfDraft(draft, kind)) : (draft.metadata ?? "");
        const { clientId: registered, secret } = await registerPartnerApp(actor, metadata);
        // A confidential application's first secret is shown on the page after, this once, as a new secret is.
        const shown = secret && sealedCookie(DEVELOPER_SECRET_COOKIE, { clientId: registered, ...secret }, cookie);
        return seeOther(pageUrl(PAGES.developer, { registered }), shown ? [shown] : []);
      }
      case "update":
        await changePartnerApp(actor, clientId, form.get("metadata") ?? "");
        return seeOther(pageUrl(PAGES.developer, { changed: clientId }));
      case "remove":
        await removePartnerApp(actor, clientId);
        return seeOther(pageUrl(PAGES.developer, { removed: clientId }));
      default:
        return await secretAction(actor, form, cookie);
    }
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    if (!(error instanceof ClientRegistryError || error instanceof ClientMetadataError)) throw error;
    const problem = problemOf(action, error, {
      byForm: action === "register" && isFormClientKind(kind),
      secretId: form.get("secret_id") ?? undefined,
    });
    const kept =
      action === "register" ? draft : action === "update" ? { metadata: form.get("metadata") ?? "" } : undefined;
    return refused({ action, problem, draft: kept });
  }
}

/** Where a refused form goes back to: the form it came from. */
function refusalPage(action: DeveloperAction, clientId: string): string {
  if (action === "register") return `${PAGES.developer}#register`;
  if (action === "update" || action === "remove") return `${pageUrl(PAGES.developer, { edit: clientId })}#change`;
  return PAGES.developer;
}
