/**
 * POST /interaction/company: the forms of a company's people page, for its administrators (/portal/company) and for
 * operators (/admin/companies/<id>, which names the company in `company_id`). The rights are checked in
 * lib/rights/company-people.ts; this turns the outcome into the page after it, with what happened or why it was
 * refused (a localized message key, the field, what was typed) in a sealed one-time cookie.
 */
import { PAGES, adminCompanyPage } from "@/lib/http/paths";
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { COMPANY_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { InvitationError } from "@/lib/admin/invitations";
import { wakeMailDelivery } from "@/lib/mail/mail-delivery";
import { PersonFieldError } from "@/lib/admin/person-fields";
import { UserRegistryError } from "@/lib/admin/user-registry";
import { CompanyRegistryError } from "@/lib/admin/company-registry";
import { AccessDenied, actorOfRequest, isOperator, type Actor } from "@/lib/rights/actor";
import {
  actOnCompanyPeople,
  CompanyPeopleError,
  PEOPLE_ACTIONS,
  setCompanySecondFactor,
  setCompanySignInNotices,
} from "@/lib/rights/company-people";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

/** What the page after a company form shows. */
export interface CompanyFormOutcome {
  action: string;
  email: string;
  /** the message key of CompanyPeople.problems, when refused */
  problem?: string;
  field?: string;
  role?: string;
  language?: string;
}

const MAX_COMPANY_ID_LENGTH = 64;

/** The message key of a refusal: the error's own code, which CompanyPeople.problems names. */
function problemOf(error: unknown): { problem: string; field?: string } | undefined {
  if (error instanceof PersonFieldError) return { problem: error.code, field: error.field };
  if (error instanceof InvitationError) return { problem: error.code, field: "email" };
  if (error instanceof CompanyPeopleError) return { problem: error.code };
  if (error instanceof UserRegistryError) return { problem: error.code };
  return undefined;
}

/**
 * The company's switches, set by its administrators or an operator: by the form's action, the field that says on or
 * off, the setter (whose rights check refuses anyone else) and the page's section and query that show the outcome.
 */
const COMPANY_SWITCHES = {
  "second-factor": {
    field: "required",
    set: setCompanySecondFactor,
    query: "secondFactor",
    section: "second-factor-rule",
  },
  "sign-in-notices": {
    field: "notices",
    set: setCompanySignInNotices,
    query: "signInNotices",
    section: "sign-in-notices",
  },
} as const;

type CompanySwitch = keyof typeof COMPANY_SWITCHES;

const isCompanySwitch = (action: string | null): action is CompanySwitch =>
  action !== null && Object.hasOwn(COMPANY_SWITCHES, action);

async function companySwitch(
  actor: Actor,
  companyId: string | undefined,
  form: URLSearchParams,
  back: string,
  which: CompanySwitch,
) {
  const { field, set, query, section } = COMPANY_SWITCHES[which];
  const on = form.get(field) === "on";
  try {
    await set(actor, companyId, on);
  } catch (error) {
    // The page offers no way to lift an operator's rule: a form that tries is refused as one no page sends.
    if (error instanceof AccessDenied || error instanceof CompanyRegistryError) return plainRefusal(403, "Forbidden");
    throw error;
  }
  return seeOther(`${back}?${new URLSearchParams({ [query]: on ? "on" : "off" })}#${section}`);
}

export async function handleCompanySubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind !== "user") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.company }));
  const form = await readForm(request);
  const companyId = form.get("company_id") || undefined;
  if (companyId && companyId.length > MAX_COMPANY_ID_LENGTH) return plainRefusal(400, "The form names no company.");
  const back = companyId && isOperator(actor) ? adminCompanyPage(companyId) : PAGES.company;
  const action = PEOPLE_ACTIONS.find((known) => known === form.get("action"));
  const typed = {
    action: action ?? "",
    email: (form.get("email") ?? "").slice(0, MAX_USERNAME_LENGTH),
    role: form.get("role")?.slice(0, 20),
    language: form.get("language")?.slice(0, 10),
  };
  const answer = (outcome: CompanyFormOutcome) =>
    seeOther(`${back}${outcome.problem ? "#people-form" : "#people"}`, [
      sealedCookie(COMPANY_FORM_COOKIE, outcome, {
        secretKey: config.secretKey,
        publicUrl: config.publicUrl,
        path: "/",
      }),
    ]);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return answer({ ...typed, problem: "form_expired" });
  const switched = form.get("action");
  if (isCompanySwitch(switched)) return companySwitch(actor, companyId, form, back, switched);
  if (!action) return answer({ ...typed, problem: "unknown_action" });
  try {
    const done = await actOnCompanyPeople(actor, companyId, { ...typed, action });
    if (done === "invite" || done === "resend") wakeMailDelivery();
    return answer({ action: done, email: typed.email });
  } catch (error) {
    if (error instanceof AccessDenied)
      // An administrator naming another company learns only that they may not; others get a plain 403.
      return companyId && !isOperator(actor)
        ? answer({ ...typed, problem: "other_company" })
        : plainRefusal(403, "Forbidden");
    const refused = problemOf(error);
    if (refused) return answer({ ...typed, ...refused });
    throw error;
  }
}
