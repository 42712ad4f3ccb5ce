/**
 * POST /interaction/suppliers: the supplier registration forms of /portal/suppliers, through the same data functions
 * and rules as the platform API (lib/rights/registrations.ts). Opticians request (`request`), change subscriptions
 * (`subscriptions`) and withdraw (`withdraw`); supplier users approve with customer groups (`approve`), reject
 * (`reject`) and end an active registration (`end`). Each change names the version it was made on, so a change made
 * meanwhile by someone else is reported instead of overwritten. Answers 303 to the page with `done` or `error`; a
 * value refused at its field goes back with what was typed in a sealed one-time cookie, and the form open again.
 */
import { PAGES } from "@/lib/http/paths";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { actorOfRequest } from "@/lib/rights/actor";
import {
  changeRegistration,
  RegistrationError,
  requestRegistration,
  type RegistrationChange,
} from "@/lib/rights/registrations";
import { readForm } from "@/lib/http/form-body";
import { pageUrl, seeOther } from "@/lib/http/see-other";
import type { ServiceContext } from "@/lib/service-context";
import { checkClientId, checkCustomerGroups } from "@/lib/catalog/registrations/registration-rules";
import { isValidCsrfSubmission } from "@/lib/session/csrf";
import { REGISTRATION_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { refusedForm, refusedFormLocation } from "@/lib/forms/refused-registration-form";

/** The page's error codes (messages Suppliers.errors.*). */
type RegistrationFormError =
  | "form_expired"
  | "invalid_client_id"
  | "invalid_groups"
  | "not_found"
  | "forbidden"
  | "conflict"
  | "not_now"
  | "stale"
  | "unknown_action";

class FormProblem extends OptiGateError<RegistrationFormError> {
  constructor(readonly code: RegistrationFormError) {
    super(code);
  }
}

/** "3, 7 12" as [3, 7, 12]; anything else is invalid_groups. */
function customerGroups(text: string): number[] {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (!parts.every((part) => /^\d{1,10}$/.test(part))) throw new FormProblem("invalid_groups");
  const groups = parts.map(Number);
  try {
    checkCustomerGroups(groups);
  } catch {
    throw new FormProblem("invalid_groups");
  }
  return groups;
}

function changeOf(action: string, form: URLSearchParams): RegistrationChange {
  switch (action) {
    case "approve":
      return { status: "active", customerGroups: customerGroups(form.get("customer_groups") ?? "") };
    case "reject":
      return { status: "rejected" };
    case "withdraw":
    case "end":
      return { status: "withdrawn" };
    case "subscriptions": {
      const chosen = new Set(form.getAll("subscribed"));
      return {
        subscriptions: form
          .getAll("catalog")
          .map((catalogId) => ({ catalogId, status: chosen.has(catalogId) ? "Subscribed" : "Unsubscribed" })),
      };
    }
    default:
      throw new FormProblem("unknown_action");
  }
}

const ERROR_OF_CODE = {
  not_found: "not_found",
  forbidden: "forbidden",
  conflict: "conflict",
  invalid: "not_now",
  stale: "stale",
  precondition_required: "stale",
} as const;

export async function handleRegistrationSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  const form = await readForm(request);
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.suppliers }));
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(pageUrl(PAGES.suppliers, { error: "form_expired" }));
  const action = form.get("action") ?? "";
  try {
    if (action === "request") {
      const clientId = (form.get("client_id") ?? "").trim();
      try {
        checkClientId(clientId);
      } catch {
        throw new FormProblem("invalid_client_id");
      }
      await requestRegistration(actor, {
        supplierId: form.get("supplier_id") ?? "",
        clientId,
        catalogs: form.getAll("catalog"),
      });
    } else {
      const version = form.get("version") ?? "";
      if (!/^\d{1,9}$/.test(version)) throw new FormProblem("stale");
      await changeRegistration(actor, form.get("registration_id") ?? "", Number(version), changeOf(action, form));
    }
    return seeOther(pageUrl(PAGES.suppliers, { done: action }));
  } catch (error) {
    if (error instanceof FormProblem) {
      const refused =
        error.code === "invalid_groups" || error.code === "invalid_client_id"
          ? refusedForm(form, error.code)
          : undefined;
      if (!refused) return seeOther(pageUrl(PAGES.suppliers, { error: error.code }));
      const cookie = { secretKey: config.secretKey, publicUrl: config.publicUrl, path: PAGES.suppliers };
      return seeOther(refusedFormLocation(refused, form.get("q") ?? ""), [
        sealedCookie(REGISTRATION_FORM_COOKIE, refused, cookie),
      ]);
    }
    if (error instanceof RegistrationError)
      return seeOther(pageUrl(PAGES.suppliers, { error: ERROR_OF_CODE[error.code] }));
    throw error;
  }
}
