/**
 * The company's provider: where it is, OptiGate's client there, and which of its claims say what. The secret is
 * write-only: the field is always empty, and left empty it keeps the stored one. A refused form comes back with what
 * was typed and the message at its field, the part of the form that holds the field opened.
 */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { CompanySsoJson } from "@/lib/admin/company-sso-registry";
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import type { TypedSsoSettings } from "@/lib/forms/company-sso-settings-form";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { SSO_AUTH_METHODS } from "@/lib/store/models/company-sso";
import { CopyButton } from "@/app/_components/copy-button";
import { LabelledField } from "@/app/_components/labelled-field";
import { buttonPrimary } from "@/app/_components/ui";
import { fieldInput } from "@/app/_components/company/invite-form";
import { problemText, SsoAlert } from "@/app/_components/company/sso/sso-problem";

type Field = keyof TypedSsoSettings;

/** What each field shows: its value, and the refusal's message when it is the field refused. */
interface FieldState {
  values: TypedSsoSettings;
  errorAt: (field: string) => React.ReactNode;
}

/** The values the form shows: what was typed into a refused form, else the stored settings. */
function shownValues(provider: CompanySsoJson | null, typed?: TypedSsoSettings): TypedSsoSettings {
  if (typed) return typed;
  if (!provider) return {};
  const { claims } = provider;
  return {
    issuer: provider.issuer,
    client_id: provider.client_id,
    token_endpoint_auth_method: provider.token_endpoint_auth_method,
    scope: provider.scope,
    claim_email: claims.email,
    claim_given_name: claims.given_name,
    claim_family_name: claims.family_name,
    claim_groups: claims.groups ?? "",
    roles: Object.entries(claims.roles)
      .map(([group, role]) => `${group}=${role}`)
      .join("\n"),
    hosted_domain: provider.hosted_domain ?? "",
    tenant_id: provider.tenant_id ?? "",
  };
}

async function TextField({
  name,
  state,
  required,
  placeholder,
  hint,
}: {
  name: Field;
  state: FieldState;
  required?: boolean;
  placeholder?: string;
  hint?: string;
}) {
  const t = await getTranslations("CompanySso.settings.fields");
  const id = `sso-${name}`;
  return (
    <LabelledField id={id} label={t(name)} hint={hint} error={state.errorAt(name)}>
      {(aria) => (
        <input
          id={id}
          name={name}
          type="text"
          required={required}
          placeholder={placeholder}
          defaultValue={state.values[name]}
          autoComplete="off"
          spellCheck={false}
          className={fieldInput}
          {...aria}
        />
      )}
    </LabelledField>
  );
}

/** The issuer, OptiGate's client at the provider (the secret never shown), and the scopes asked for. */
async function ClientFields({ state, keepsSecret }: { state: FieldState; keepsSecret: boolean }) {
  const t = await getTranslations("CompanySso.settings");
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <TextField
          name="issuer"
          state={state}
          required
          placeholder="https://login.example.com"
          hint={t("hints.issuer")}
        />
      </div>
      <TextField name="client_id" state={state} required />
      <LabelledField
        id="sso-client_secret"
        label={t("fields.client_secret")}
        hint={keepsSecret ? t("hints.secretKept") : t("hints.secretNew")}
        error={state.errorAt("client_secret")}
      >
        {(aria) => (
          <input
            id="sso-client_secret"
            name="client_secret"
            type="password"
            autoComplete="new-password"
            className={fieldInput}
            {...aria}
          />
        )}
      </LabelledField>
      <LabelledField
        id="sso-token_endpoint_auth_method"
        label={t("fields.token_endpoint_auth_method")}
        error={state.errorAt("token_endpoint_auth_method")}
      >
        {(aria) => (
          <select
            id="sso-token_endpoint_auth_method"
            name="token_endpoint_auth_method"
            defaultValue={state.values.token_endpoint_auth_method ?? SSO_AUTH_METHODS[0]}
            className={fieldInput}
            {...aria}
          >
            {SSO_AUTH_METHODS.map((method) => (
              <option key={method} value={method}>
                {t(`authMethods.${method}`)}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <TextField name="scope" state={state} placeholder="openid email profile" hint={t("hints.scope")} />
    </div>
  );
}

/** Which of the provider's claims hold the address, the names and the groups, and the groups that give roles. */
async function ClaimMapping({ state, open }: { state: FieldState; open: boolean }) {
  const t = await getTranslations("CompanySso.settings");
  return (
    <details className="rounded-md border border-slate-200 p-3" open={open}>
      <summary className="cursor-pointer text-sm font-semibold text-slate-800">{t("claimsTitle")}</summary>
      <p className="mt-2 text-sm text-slate-600">{t("claimsHint")}</p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <TextField name="claim_email" state={state} placeholder="email" />
        <TextField name="claim_given_name" state={state} placeholder="given_name" />
        <TextField name="claim_family_name" state={state} placeholder="family_name" />
        <TextField name="claim_groups" state={state} placeholder="groups" hint={t("hints.groups")} />
        <div className="sm:col-span-2">
          <LabelledField
            id="sso-roles"
            label={t("fields.roles")}
            hint={t("hints.roles")}
            error={state.errorAt("roles")}
          >
            {(aria) => (
              <textarea
                id="sso-roles"
                name="roles"
                rows={4}
                defaultValue={state.values.roles}
                placeholder={"optigate-admins=admin\noptigate-users=user"}
                spellCheck={false}
                className={`${fieldInput} font-mono`}
                {...aria}
              />
            )}
          </LabelledField>
        </div>
      </div>
    </details>
  );
}

/** Google Workspace's hosted domain and Entra ID's tenant: who of a shared provider's accounts may sign in. */
async function TenantFields({ state, open }: { state: FieldState; open: boolean }) {
  const t = await getTranslations("CompanySso.settings");
  return (
    <details className="rounded-md border border-slate-200 p-3" open={open}>
      <summary className="cursor-pointer text-sm font-semibold text-slate-800">{t("tenantTitle")}</summary>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <TextField name="hosted_domain" state={state} placeholder="example.com" hint={t("hints.hosted_domain")} />
        <TextField
          name="tenant_id"
          state={state}
          placeholder="00000000-0000-0000-0000-000000000000"
          hint={t("hints.tenant_id")}
        />
      </div>
    </details>
  );
}

const CLAIM_FIELDS = ["claim_email", "claim_given_name", "claim_family_name", "claim_groups", "roles"];
const TENANT_FIELDS = ["hosted_domain", "tenant_id"];

export async function SsoSettingsForm({
  provider,
  callbackUrl,
  csrf,
  refused,
}: {
  provider: CompanySsoJson | null;
  callbackUrl: string;
  csrf: string;
  /** the outcome of this form when it was refused */
  refused?: CompanySsoOutcome;
}) {
  const [t, copy] = [await getTranslations("CompanySso.settings"), await getTranslations("CompanySso.copy")];
  const problem = refused?.field ? await problemText(refused) : null;
  const state: FieldState = {
    values: shownValues(provider, refused?.typed),
    errorAt: (field) => (refused?.field === field ? problem : null),
  };
  const refusedField = refused?.field ?? "";
  return (
    <form
      id="sso-settings"
      method="post"
      action={FORMS.companySso}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h3 className="text-base font-semibold text-brand-800">{t("title")}</h3>
      <SsoAlert outcome={refused} />
      <div className="space-y-1 rounded-md bg-slate-50 p-3 text-sm text-slate-700">
        <p>{t("redirectUri")}</p>
        <p className="flex flex-wrap items-center gap-2">
          <code className="break-all text-slate-900" data-sso-redirect-uri>
            {callbackUrl}
          </code>
          <CopyButton text={callbackUrl} label={copy("label")} copied={copy("done")} failed={copy("failed")} />
        </p>
      </div>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value="settings" />
      {/* An administrator's change never keeps the operator's secret: they are asked for one of their own. */}
      <ClientFields state={state} keepsSecret={!!provider?.client_secret_set && !provider.registered_by_operator} />
      <ClaimMapping state={state} open={CLAIM_FIELDS.includes(refusedField)} />
      <TenantFields state={state} open={TENANT_FIELDS.includes(refusedField)} />
      <p className="text-sm text-slate-600">{t("saveHint")}</p>
      <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
        {t("save")}
      </button>
    </form>
  );
}
