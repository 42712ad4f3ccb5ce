import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { ScopeDefinition } from "@/lib/oauth/scopes";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import {
  CHECKBOX_FIELDS,
  FIELDS_BY_KIND,
  NAME_LANGUAGES,
  translatedNameField,
  type FormClientKind,
  type RegistrationDraft,
  type RegistrationField,
} from "@/lib/forms/client-registration-form";
import { LANGUAGE_NAMES } from "@/lib/i18n/locales";
import { buttonPrimary } from "@/app/_components/ui";
import { fieldAria, FieldError, invalidInput, LabelledField } from "@/app/_components/labelled-field";
import { ScopeChoice } from "./scope-choice";

const input = `block w-full rounded-md border border-slate-400 px-3 py-2 text-sm text-slate-900 ${invalidInput}`;
const LIST_FIELDS = new Set<RegistrationField>([
  "redirect_uris",
  "post_logout_redirect_uris",
  "allowed_cors_origins",
  "allowed_resources",
]);
/** What a new interactive client may ask for unless the operator chooses otherwise: signing people in. */
const SIGN_IN_SCOPES = ["openid", "profile", "email"];

/** An example redirect URI fitting the kind (a native app's own scheme, a browser app's dev server). */
const EXAMPLES: Record<FormClientKind, string> = {
  browser: "https://app.example.com/callback",
  native: "com.example.app:/callback",
  web: "https://shop.example.com/callback",
  device: "",
  backend: "",
};

/** An example for a list field: a redirect URI, the start page after sign-out, its origin, or an API it calls. */
function example(field: RegistrationField, kind: FormClientKind): string {
  if (field === "allowed_cors_origins") return "https://app.example.com";
  if (field === "allowed_resources") return "https://api.example.com/orders";
  return field === "post_logout_redirect_uris" ? EXAMPLES[kind].replace(/callback$/, "") : EXAMPLES[kind];
}

type ErrorAt = (id: string) => ReactNode;

/** A switch of the registration: offline access, DPoP-bound tokens or pushed authorization requests. */
async function Checkbox({ field, checked, error }: { field: RegistrationField; checked: boolean; error?: ReactNode }) {
  const t = await getTranslations("Admin.clientForm");
  return (
    <div>
      <div className="flex items-start gap-2">
        <input
          id={field}
          type="checkbox"
          name={field}
          value="on"
          defaultChecked={checked}
          className="mt-0.5 h-4 w-4"
          {...fieldAria(field, true, error)}
        />
        <label htmlFor={field} className="text-sm font-medium text-slate-800">
          {t(`labels.${field}`)}
        </label>
      </div>
      <p id={`${field}-hint`} className="ml-6 text-sm text-slate-600">
        {t(`hints.${field}`)}
      </p>
      <FieldError id={field} error={error} />
    </div>
  );
}

async function TextField({
  field,
  kind,
  value,
  error,
}: {
  field: RegistrationField;
  kind: FormClientKind;
  value?: string;
  error?: ReactNode;
}) {
  const t = await getTranslations("Admin.clientForm");
  const hint = field === "redirect_uris" && kind === "native" ? t("hints.redirect_uris_native") : t(`hints.${field}`);
  return (
    <LabelledField id={field} label={t(`labels.${field}`)} hint={hint} error={error}>
      {(aria) =>
        LIST_FIELDS.has(field) ? (
          <textarea
            id={field}
            name={field}
            rows={3}
            defaultValue={value}
            placeholder={example(field, kind)}
            className={`${input} font-mono`}
            {...aria}
          />
        ) : (
          <input
            id={field}
            name={field}
            defaultValue={value}
            required={field === "client_name"}
            maxLength={field === "client_id" || field === "company_id" ? 64 : 500}
            autoComplete="off"
            className={input}
            {...aria}
          />
        )
      }
    </LabelledField>
  );
}

/**
 * The client's name in the other page languages, each input labelled with the language's own name: optional, folded
 * away unless one was typed or refused.
 */
async function TranslatedNames({ draft, errorAt }: { draft?: RegistrationDraft; errorAt: ErrorAt }) {
  const t = await getTranslations("Admin.clientForm");
  const fields = NAME_LANGUAGES.map((locale) => ({ locale, field: translatedNameField(locale) }));
  const open = fields.some(({ field }) => draft?.[field] !== undefined || errorAt(field));
  return (
    <details open={open} className="rounded-md border border-slate-200 px-3 py-2">
      <summary className="cursor-pointer text-sm font-medium text-slate-800">{t("labels.translated_names")}</summary>
      <p className="mt-1 text-sm text-slate-600">{t("hints.translated_names")}</p>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {fields.map(({ locale, field }) => (
          <LabelledField
            key={field}
            id={field}
            label={<span lang={locale}>{LANGUAGE_NAMES[locale]}</span>}
            error={errorAt(field)}
          >
            {(aria) => (
              <input
                id={field}
                name={field}
                lang={locale}
                defaultValue={draft?.[field]}
                maxLength={500}
                autoComplete="off"
                className={input}
                {...aria}
              />
            )}
          </LabelledField>
        ))}
      </div>
    </details>
  );
}

/** The registration form for one kind of client: its fields with their help, the draft refused last filled in. */
export async function RegistrationForm({
  kind,
  draft,
  scopes,
  csrf,
  errorAt,
  target,
}: {
  kind: FormClientKind;
  draft?: RegistrationDraft;
  scopes: ScopeDefinition[];
  csrf: string;
  errorAt: ErrorAt;
  target: { action: string; partner?: boolean };
}) {
  const t = await getTranslations("Admin");
  const typed = draft?.kind === kind ? draft : undefined;
  const checkedScopes = typed ? (typed.scope ?? "").split(" ") : kind === "backend" ? [] : SIGN_IN_SCOPES;
  return (
    <form method="post" action={target.action} className="mt-4 space-y-4" data-client-kind={kind}>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="register" />
      <input type="hidden" name="kind" value={kind} />
      {FIELDS_BY_KIND[kind]
        .filter((field) => !(target.partner && field === "company_id"))
        .map((field) =>
          field === "translated_names" ? (
            <TranslatedNames key={field} draft={typed} errorAt={errorAt} />
          ) : field === "scope" ? (
            <ScopeChoice key={field} kind={kind} scopes={scopes} checked={checkedScopes} error={errorAt("scope")} />
          ) : CHECKBOX_FIELDS.includes(field) ? (
            <Checkbox key={field} field={field} checked={Boolean(typed?.[field])} error={errorAt(field)} />
          ) : (
            <TextField key={field} field={field} kind={kind} value={typed?.[field]} error={errorAt(field)} />
          ),
        )}
      <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
        {t("registerButton")}
      </button>
    </form>
  );
}
