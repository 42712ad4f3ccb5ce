import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { ScopeDefinition } from "@/lib/oauth/scopes";
import type { FormClientKind } from "@/lib/forms/client-registration-form";
import { fieldAria, FieldError } from "@/app/_components/labelled-field";

/** One checkbox per scope, named and with its technical name; `name` is the field the form posts. */
export async function ScopeCheckboxes({
  name,
  scopes,
  checked,
}: {
  name: string;
  scopes: ScopeDefinition[];
  checked: string[];
}) {
  const t = await getTranslations("Scopes");
  return (
    <div className="mt-2 grid gap-2 sm:grid-cols-2">
      {scopes.map((scope) => (
        <label key={scope.name} className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name={name}
            value={scope.name}
            defaultChecked={checked.includes(scope.name)}
            className="mt-0.5 h-4 w-4"
          />
          <span>
            {t(`${scope.textKey}.name`)}{" "}
            <span className="break-all font-mono text-xs text-slate-600">{scope.name}</span>
          </span>
        </label>
      ))}
    </div>
  );
}

/**
 * The scopes a client of the kind may ask for, one checkbox each. Offline access has its own checkbox; a backend
 * client acts for no person, so it is offered the platform API scopes and the management API's (the metadata rules
 * keep manage.* without a company and manage.company.* with one), and no sign-in scopes.
 */
export async function ScopeChoice({
  kind,
  scopes,
  checked,
  error,
}: {
  kind: FormClientKind;
  scopes: ScopeDefinition[];
  checked: string[];
  error?: ReactNode;
}) {
  const t = await getTranslations("Admin.clientForm");
  const offered = scopes.filter((scope) =>
    kind === "backend"
      ? scope.kind === "api" || scope.kind === "manage"
      : scope.kind !== "manage" && scope.name !== "offline_access",
  );
  return (
    <fieldset id="scope" aria-describedby={fieldAria("scope", true, error)["aria-describedby"]}>
      <legend className="text-sm font-medium text-slate-800">{t("labels.scope")}</legend>
      <p id="scope-hint" className="mt-0.5 text-sm text-slate-600">
        {t(kind === "backend" ? "hints.scopeBackend" : "hints.scope")}
      </p>
      <ScopeCheckboxes name="scope" scopes={offered} checked={checked} />
      <FieldError id="scope" error={error} />
    </fieldset>
  );
}
