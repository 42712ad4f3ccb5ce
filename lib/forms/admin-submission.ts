/**
 * POST /interaction/admin: the operator pages' forms, with the same validation and registry as the CLI, through the
 * data-access layer (operators only). A newly created secret, and a refusal with what was typed, travel to the next
 * page in a sealed, HttpOnly cookie that lives two minutes (never in a URL). The registration form by kind submits
 * the same client metadata as the JSON view (lib/forms/client-registration-form.ts). The outbox page's forms come here
 * too (lib/forms/outbox-submission.ts), and the webhook pages' (lib/forms/webhook-admin-submission.ts).
 */
import { PAGES, adminClientPage } from "@/lib/http/paths";
import { AccessDenied, actorOfRequest, isOperator } from "@/lib/rights/actor";
import {
  addClientSecret,
  ClientMetadataError,
  ClientRegistryError,
  disableClientSecret,
  registerClient,
  removeClient,
  reviewClient,
  setClientSecretExpiry,
  updateClient,
  type NewSecret,
} from "@/lib/rights/operator-clients";
import { MAX_CLIENT_ID_LENGTH } from "@/lib/config/policy";
import { parseDay } from "@/lib/http/calendar-instant";
import { readForm } from "@/lib/http/form-body";
import { ADMIN_FORM_COOKIE, NEW_SECRET_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { boundedOutcome, problemOf, type AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import {
  isFormClientKind,
  metadataOfDraft,
  registrationDraft,
  type RegistrationDraft,
} from "@/lib/forms/client-registration-form";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import {
  isOutboxAction,
  isOutboxRefusal,
  OUTBOX_ACTIONS,
  outboxProblem,
  submitOutboxForm,
} from "@/lib/forms/outbox-submission";
import { isWebhookFormAction, submitAdminWebhookForm } from "@/lib/forms/webhook-admin-submission";
import { RETURN_TO_LIST } from "@/lib/forms/return-to-list";

export type NewSecretShown = NewSecret;

const ADMIN_ACTIONS = [
  "register",
  "update",
  "remove",
  "secret-add",
  "secret-expiry",
  "secret-disable",
  "approve",
  "reject",
  ...OUTBOX_ACTIONS,
] as const;
/** The longest reason for a rejection kept (it goes to the software vendor). */
const MAX_REASON_LENGTH = 1000;
const forbiddenResponse = () => plainRefusal(403, "Forbidden");
const malformedResponse = () => plainRefusal(400, "The form names a client or secret that cannot exist.");

/** A secret's expiry from the date input: the end of that day (UTC); one that does not exist or lies past 9999 is refused. */
function parseDate(value: string | null): Date | null {
  if (!value) return null;
  const date = parseDay(value, "last-second");
  if (!date) throw new ClientRegistryError("invalid_state", `"${value.slice(0, 40)}" is not a date`);
  return date;
}

export async function handleAdminSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  // The data functions check this for every action; checking first gives everyone else one answer for all input.
  if (!isOperator(actor)) return forbiddenResponse();
  const form = await readForm(request);
  // The webhook pages' forms have an outcome of their own, with a secret shown once (lib/forms/webhook-form.ts).
  const webhookAction = form.get("action");
  if (isWebhookFormAction(webhookAction)) return submitAdminWebhookForm(request, context, actor, form, webhookAction);
  const action = ADMIN_ACTIONS.find((known) => known === form.get("action")) ?? "";
  const kind = form.get("kind") ?? undefined;
  // The registration form by kind, or else the JSON view; either way, one text of client metadata.
  const draft: RegistrationDraft = isFormClientKind(kind)
    ? registrationDraft(form, kind)
    : { metadata: form.get("metadata") ?? "" };
  const clientId = action === "register" ? "" : (form.get("client_id") ?? "");
  const secretId = form.get("secret_id") ?? "";
  // Longer ids name no client or secret; refused before they reach a URL or a cookie.
  if (clientId.length > MAX_CLIENT_ID_LENGTH || secretId.length > MAX_CLIENT_ID_LENGTH) return malformedResponse();
  const back =
    action === "register" ? PAGES.adminClients : isOutboxAction(action) ? PAGES.adminOutbox : adminClientPage(clientId);
  const cookie = { secretKey: config.secretKey, publicUrl: config.publicUrl, path: PAGES.admin };
  const refused = (outcome: AdminFormOutcome) =>
    seeOther(action === "register" ? `${back}#register` : back, [
      sealedCookie(ADMIN_FORM_COOKIE, boundedOutcome(outcome), cookie),
    ]);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    // No draft: a form that failed the check may come from another page, and must not prefill the operator's.
    return refused({ action, problem: { key: "expired" } });

  const withSecret = (location: string, secret: NewSecret | undefined) =>
    seeOther(location, secret ? [sealedCookie(NEW_SECRET_COOKIE, secret, cookie)] : []);
  try {
    switch (action) {
      case "register": {
        const metadata = isFormClientKind(kind) ? JSON.stringify(metadataOfDraft(draft, kind)) : draft.metadata!;
        const { client, secret } = await registerClient(actor, metadata);
        return withSecret(pageUrl(adminClientPage(client.id), { created: "1" }), secret);
      }
      case "update":
        await updateClient(actor, clientId, form.get("metadata") ?? "");
        return seeOther(pageUrl(adminClientPage(clientId), { saved: "1" }));
      case "remove":
        await removeClient(actor, clientId);
        return seeOther(pageUrl(PAGES.adminClients, { removed: clientId }));
      case "secret-add":
        return withSecret(
          pageUrl(adminClientPage(clientId), { saved: "1" }),
          await addClientSecret(actor, clientId, {
            expiresAt: parseDate(form.get("expires")) ?? undefined,
            description: form.get("description") || undefined,
          }),
        );
      case "secret-expiry":
        await setClientSecretExpiry(actor, clientId, secretId, parseDate(form.get("expires")));
        return seeOther(pageUrl(adminClientPage(clientId), { saved: "1" }));
      case "secret-disable":
        await disableClientSecret(actor, clientId, secretId);
        return seeOther(pageUrl(adminClientPage(clientId), { saved: "1" }));
      case "approve":
      case "reject": {
        const reason = (form.get("reason") ?? "").trim().slice(0, MAX_REASON_LENGTH);
        if (action === "reject" && !reason) return refused({ action, problem: { key: "reasonMissing" } });
        const version = (form.get("version") ?? "").slice(0, 40) || undefined;
        await reviewClient(
          actor,
          clientId,
          action === "approve" ? { approve: true } : { approve: false, reason },
          version,
        );
        return seeOther(
          form.get(RETURN_TO_LIST.field) === RETURN_TO_LIST.value
            ? pageUrl(PAGES.adminClients, { reviewed: action, client: clientId })
            : pageUrl(adminClientPage(clientId), { reviewed: action }),
        );
      }
      case "outbox-retry":
      case "outbox-test-mail":
        return seeOther(await submitOutboxForm(actor, action, form));
      default:
        return refused({ action, problem: { key: "unknownAction" } });
    }
  } catch (error) {
    if (error instanceof AccessDenied) return forbiddenResponse();
    if (isOutboxRefusal(error)) return refused({ action, problem: outboxProblem(error, form) });
    if (error instanceof ClientMetadataError || error instanceof ClientRegistryError) {
      const problem = problemOf(action, error, {
        byForm: isFormClientKind(kind),
        secretId: secretId || undefined,
      });
      // What was typed into the registration or the edit comes back; a secret's form is short to type again.
      const kept =
        action === "register" ? draft : action === "update" ? { metadata: form.get("metadata") ?? "" } : undefined;
      return refused({ action, problem, draft: kept });
    }
    throw error;
  }
}
