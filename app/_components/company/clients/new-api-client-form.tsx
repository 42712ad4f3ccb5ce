/**
 * Creating an API client for the company: a name, and the company scopes to give it, each with the text people see
 * when they are asked for it. A refusal comes back at its field with what was typed.
 */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { CompanyClientOutcome } from "@/lib/forms/company-client-submission";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { fieldAria, FieldError } from "@/app/_components/labelled-field";
import { Alert, buttonSecondary } from "@/app/_components/ui";
import { fieldInput } from "@/app/_components/company/invite-form";
import { clientProblemText } from "@/app/_components/company/clients/client-problem";

export async function NewApiClientForm({
  scopes,
  csrf,
  refused,
}: {
  scopes: readonly string[];
  csrf: string;
  refused?: CompanyClientOutcome;
}) {
  const [t, texts] = [await getTranslations("CompanyClients"), await getTranslations("Scopes")];
  const problem = refused ? await clientProblemText(refused) : null;
  const nameError = refused?.problem === "invalid_name" ? problem : null;
  const scopesError = refused?.problem === "invalid_scopes" ? problem : null;
  const chosen = refused?.typed?.scopes;
  return (
    <form
      id="api-client-new"
      method="post"
      action={FORMS.companyClients}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h3 className="text-base font-semibold text-brand-800">{t("newTitle")}</h3>
      {problem && !nameError && !scopesError ? <Alert>{problem}</Alert> : null}
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="create" />
      <div>
        <label htmlFor="api-client-name" className="block text-sm font-medium text-slate-800">
          {t("name")}
        </label>
        <p id="api-client-name-hint" className="mt-0.5 text-sm text-slate-600">
          {t("nameHint")}
        </p>
        <input
          id="api-client-name"
          name="name"
          type="text"
          required
          maxLength={100}
          autoComplete="off"
          defaultValue={refused?.typed?.name}
          className={fieldInput}
          {...fieldAria("api-client-name", true, nameError)}
        />
        <FieldError id="api-client-name" error={nameError} />
      </div>
      <fieldset aria-describedby={scopesError ? "api-client-scopes-error" : undefined}>
        <legend className="text-sm font-medium text-slate-800">{t("scopesLegend")}</legend>
        <ul className="mt-2 space-y-2">
          {scopes.map((scope) => {
            const key = scope.replaceAll(".", "_") as "openid";
            return (
              <li key={scope} className="flex gap-3 rounded-md border border-slate-200 p-3">
                <input
                  id={`api-client-scope-${scope}`}
                  type="checkbox"
                  name="scope"
                  value={scope}
                  defaultChecked={chosen?.includes(scope)}
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
                />
                <label htmlFor={`api-client-scope-${scope}`} className="text-sm">
                  <span className="block font-medium text-slate-900">{texts(`${key}.name`)}</span>
                  <span className="block text-slate-600">{texts(`${key}.description`)}</span>
                  <code className="block text-xs text-slate-500">{scope}</code>
                </label>
              </li>
            );
          })}
        </ul>
        <FieldError id="api-client-scopes" error={scopesError} />
      </fieldset>
      <button type="submit" className={`${buttonSecondary} sm:w-auto`}>
        {t("create")}
      </button>
    </form>
  );
}
