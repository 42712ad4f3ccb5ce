/**
 * POST /interaction/companies: the operator's company forms (/admin/companies): add or change a company from its
 * fields, deactivate or activate it, set the platform scopes a software vendor's applications may ask for. Operators only (checked in lib/rights/operator-companies.ts). A refusal goes
 * back to the form with the reason and what was typed, in a sealed one-time cookie; nothing is written then.
 */
import { PAGES, adminCompanyPage } from "@/lib/http/paths";
import { COMPANY_RECORD_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { AccessDenied, actorOfRequest, isOperator } from "@/lib/rights/actor";
import {
  allowPartnerSandbox,
  allowPartnerScopes,
  CompanyMetadataError,
  CompanyRegistryError,
  PartnerAccessError,
  saveCompany,
  setCompanyActive,
} from "@/lib/rights/operator-companies";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

const COMPANY_FIELDS = ["id", "kind", "name", "country", "supplier_id", "name1", "name2", "portal_url"] as const;
const SUPPLIER_ONLY = new Set(["supplier_id", "name1", "name2", "portal_url", "web_services"]);
const MAX_FIELD_LENGTH = 2000;
const MAX_WEB_SERVICES_LENGTH = 20_000;
/** What a refusal keeps of the form: browsers drop cookies over 4 KB, and proxies refuse large headers. */
const MAX_KEPT_FIELD = 200;
const MAX_KEPT_WEB_SERVICES = 1500;
/** More than there are platform scopes; each name is bounded as a field is. */
const MAX_PARTNER_SCOPES = 50;

/** What the company form shows again after a refusal. */
export interface RefusedCompanyForm {
  /** the company being changed; none for a new one */
  companyId?: string;
  reason: string;
  typed: Record<string, string>;
}

/** The company's description as `companies add` reads it, from the form's fields (empty ones left out). */
function describedCompany(typed: Record<string, string>): Record<string, unknown> {
  const description: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(typed)) {
    if (value.trim() === "" || (typed.kind !== "supplier" && SUPPLIER_ONLY.has(field))) continue;
    if (field === "country") description.country = value.trim().toUpperCase();
    else if (field !== "web_services") description[field] = value.trim();
    else {
      try {
        description.web_services = JSON.parse(value);
      } catch {
        throw new CompanyMetadataError(
          'web_services must be a JSON list such as [{"type", "name", "url", "priority"}]',
        );
      }
    }
  }
  return description;
}

/** What was typed, as much as the refusal's cookie carries: longer values are left out, to be typed again. */
function kept(typed: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(typed).filter(
      ([field, value]) => value.length <= (field === "web_services" ? MAX_KEPT_WEB_SERVICES : MAX_KEPT_FIELD),
    ),
  );
}

export async function handleCompanyRecordSubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (!isOperator(actor)) return plainRefusal(403, "Forbidden");
  const form = await readForm(request);
  const action = form.get("action");
  const companyId = form.get("company_id") || undefined;
  if (companyId && companyId.length > 64) return plainRefusal(400, "The form names no company.");
  const typed: Record<string, string> = {};
  for (const field of [...COMPANY_FIELDS, "web_services"]) {
    const value = form.get(field);
    if (value !== null)
      typed[field] = value.slice(0, field === "web_services" ? MAX_WEB_SERVICES_LENGTH : MAX_FIELD_LENGTH);
  }
  const page = companyId ? adminCompanyPage(companyId) : PAGES.adminCompanies;
  const refused = (reason: string) =>
    seeOther(`${page}#company-form`, [
      sealedCookie(
        COMPANY_RECORD_COOKIE,
        { companyId, reason: reason.slice(0, 300), typed: kept(typed) } satisfies RefusedCompanyForm,
        {
          secretKey: config.secretKey,
          publicUrl: config.publicUrl,
          path: PAGES.adminCompanies,
        },
      ),
    ]);
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl)) return refused("form_expired");
  try {
    if (action === "save") {
      const saved = await saveCompany(actor, companyId, describedCompany(typed));
      return seeOther(pageUrl(adminCompanyPage(saved.id), { saved: "1" }));
    }
    if (action === "partner-scopes" && companyId) {
      const scopes = form.getAll("partner_scope").slice(0, MAX_PARTNER_SCOPES);
      await allowPartnerScopes(
        actor,
        companyId,
        scopes.map((scope) => scope.slice(0, MAX_KEPT_FIELD)),
      );
      return seeOther(pageUrl(page, { scopesSaved: "1" }));
    }
    if ((action === "sandbox-on" || action === "sandbox-off") && companyId) {
      await allowPartnerSandbox(actor, companyId, action === "sandbox-on");
      return seeOther(pageUrl(page, { sandboxSaved: "1" }));
    }
    if ((action === "deactivate" || action === "activate") && companyId) {
      await setCompanyActive(actor, companyId, action === "activate");
      return seeOther(pageUrl(page, { [action === "activate" ? "activated" : "deactivated"]: "1" }));
    }
    return refused("unknown_action");
  } catch (error) {
    if (error instanceof AccessDenied) return plainRefusal(403, "Forbidden");
    if (
      error instanceof CompanyMetadataError ||
      error instanceof CompanyRegistryError ||
      error instanceof PartnerAccessError
    )
      return refused(error.message);
    throw error;
  }
}
