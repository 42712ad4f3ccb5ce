import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import type { CompanyJson } from "@/lib/rights/operator-companies";
import type { RefusedCompanyForm } from "@/lib/forms/company-record-submission";
import { invalidInput } from "@/app/_components/labelled-field";
import { Alert } from "@/app/_components/ui";

const KINDS = ["eye_care_professional", "supplier", "operator", "software_vendor"] as const;
const input = `mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 ${invalidInput}`;
const label = "block text-sm font-medium text-slate-800";

/** The values the form starts with: what was typed before a refusal, else the company as it is. */
function initialValues(company: CompanyJson | undefined, refused: RefusedCompanyForm | undefined) {
  if (refused) return refused.typed;
  if (!company) return { kind: "eye_care_professional", country: "DE" } as Record<string, string>;
  return {
    kind: company.kind,
    name: company.name,
    country: company.country ?? "",
    supplier_id: company.supplier_id ?? "",
    name1: company.name1 ?? "",
    name2: company.name2 ?? "",
    portal_url: company.portal_url ?? "",
    web_services: company.web_services?.length ? JSON.stringify(company.web_services, null, 2) : "",
  } as Record<string, string>;
}

type TextField = (name: string, caption: string, extra?: { hint?: string; maxLength?: number }) => ReactNode;

/** The catalog list's entry of a supplier: ignored for other kinds. */
async function SupplierFields({ text, values }: { text: TextField; values: Record<string, string> }) {
  const t = await getTranslations("AdminCompanies");
  return (
    <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-700">{t("supplierFields")}</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        {text("supplier_id", t("supplierId"), { maxLength: 64 })}
        {text("portal_url", t("portalUrl"), { maxLength: 2000 })}
        {text("name1", t("name1"))}
        {text("name2", t("name2"))}
      </div>
      <div>
        <label htmlFor="company-web_services" className={label}>
          {t("webServices")}
        </label>
        <p id="company-web_services-hint" className="mt-0.5 text-sm text-slate-600">
          {t("webServicesHint")}
        </p>
        <textarea
          id="company-web_services"
          name="web_services"
          rows={8}
          defaultValue={values.web_services ?? ""}
          aria-describedby="company-web_services-hint"
          className={`${input} font-mono`}
        />
      </div>
    </fieldset>
  );
}

/** Adding a company (no `company`) or changing one; the same fields as `companies add`. */
export async function CompanyForm({
  company,
  refused,
  csrf,
}: {
  company?: CompanyJson;
  refused?: RefusedCompanyForm;
  csrf: string;
}) {
  const [t, admin] = [await getTranslations("AdminCompanies"), await getTranslations("Admin")];
  const values = initialValues(company, refused);
  const reason = refused
    ? t("refused", {
        reason:
          refused.reason === "form_expired" || refused.reason === "unknown_action"
            ? t(`refusedReasons.${refused.reason}`)
            : refused.reason,
      })
    : null;
  const text = (
    name: string,
    caption: string,
    extra: { hint?: string; required?: boolean; maxLength?: number } = {},
  ) => (
    <div>
      <label htmlFor={`company-${name}`} className={label}>
        {caption}
      </label>
      {extra.hint ? (
        <p id={`company-${name}-hint`} className="mt-0.5 text-sm text-slate-600">
          {extra.hint}
        </p>
      ) : null}
      <input
        id={`company-${name}`}
        name={name}
        defaultValue={values[name] ?? ""}
        required={extra.required}
        maxLength={extra.maxLength ?? 200}
        aria-describedby={extra.hint ? `company-${name}-hint` : undefined}
        className={input}
      />
    </div>
  );
  return (
    <form
      id="company-form"
      method="post"
      action={FORMS.companies}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 className="text-lg font-semibold text-brand-800">{company ? t("editTitle") : t("createTitle")}</h2>
      {reason ? <Alert>{reason}</Alert> : null}
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="save" />
      {company ? <input type="hidden" name="company_id" value={company.id} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="company-kind" className={label}>
            {t("kind")}
          </label>
          {company ? (
            <>
              <input type="hidden" name="kind" value={company.kind} />
              <p id="company-kind" className="mt-1 text-sm text-slate-900">
                {admin(`companyKinds.${company.kind}` as "companyKinds.supplier")}
                <span className="block text-slate-600">{t("kindFixed")}</span>
              </p>
            </>
          ) : (
            <select id="company-kind" name="kind" defaultValue={values.kind} className={input}>
              {KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {admin(`companyKinds.${kind}`)}
                </option>
              ))}
            </select>
          )}
        </div>
        {company ? null : text("id", t("id"), { hint: t("idHint"), maxLength: 64 })}
        {text("name", t("name"), { required: true })}
        {text("country", t("country"), { hint: t("countryHint"), required: true, maxLength: 2 })}
      </div>
      <SupplierFields text={text} values={values} />
      <button
        type="submit"
        className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
      >
        {company ? t("save") : t("create")}
      </button>
    </form>
  );
}
