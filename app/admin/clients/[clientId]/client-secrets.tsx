import { FORMS } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getFormatter, getTranslations } from "next-intl/server";
import type { ClientSecretInfo } from "@/lib/rights/operator-clients";
import { buttonPrimary } from "@/app/_components/ui";
import { fieldAria, FieldError, invalidInput, LabelledField } from "@/app/_components/labelled-field";
import { CELL_LABEL, DataActions, DataCell, DataRow, DataTable, Identifier } from "@/app/_components/data-table";
import { ClientFormFields } from "./client-form-fields";

type ErrorAt = (id: string) => ReactNode;

const status = (secret: ClientSecretInfo) =>
  secret.disabledAt
    ? "statusDisabled"
    : secret.expiresAt && secret.expiresAt <= new Date()
      ? "statusExpired"
      : "statusActive";

async function SecretRow({
  secret,
  clientId,
  csrf,
  errorAt,
}: {
  secret: ClientSecretInfo;
  clientId: string;
  csrf: string;
  errorAt: ErrorAt;
}) {
  const [t, format] = [await getTranslations("Admin"), await getFormatter()];
  const expiresId = `expires-${secret.id}`;
  return (
    <DataRow data-secret-id={secret.id}>
      <DataCell>
        <Identifier value={secret.id} className="font-mono text-xs" />
        {secret.description ? <span className="block text-slate-600">{secret.description}</span> : null}
      </DataCell>
      <DataCell label={t("statusLabel")}>{t(status(secret))}</DataCell>
      <DataCell label={t("createdAtLabel")}>{format.dateTime(secret.createdAt, { dateStyle: "medium" })}</DataCell>
      <DataCell>
        <form method="post" action={FORMS.admin} className="flex flex-wrap items-center gap-2">
          <ClientFormFields csrf={csrf} action="secret-expiry" clientId={clientId} />
          <input type="hidden" name="secret_id" value={secret.id} />
          <label className={CELL_LABEL} htmlFor={expiresId}>
            {t("expiresAtLabel")}
          </label>
          <input
            id={expiresId}
            type="date"
            name="expires"
            aria-label={t("expiresAt")}
            defaultValue={secret.expiresAt?.toISOString().slice(0, 10) ?? ""}
            className={`rounded border border-slate-400 px-2 py-1 ${invalidInput}`}
            {...fieldAria(expiresId, false, errorAt(expiresId))}
          />
          <button type="submit" className="rounded border border-slate-300 px-2 py-1 text-xs font-semibold">
            {t("setExpiry")}
          </button>
          <FieldError id={expiresId} error={errorAt(expiresId)} />
        </form>
      </DataCell>
      <DataActions>
        {secret.disabledAt ? null : (
          <form method="post" action={FORMS.admin}>
            <ClientFormFields csrf={csrf} action="secret-disable" clientId={clientId} />
            <input type="hidden" name="secret_id" value={secret.id} />
            <button
              type="submit"
              className="rounded border border-red-300 px-2 py-1 text-xs font-semibold text-red-800"
            >
              {t("disable")}
            </button>
          </form>
        )}
      </DataActions>
    </DataRow>
  );
}

/** A new secret: its description and expiry, each with its error at the field. */
async function NewSecretForm({ clientId, csrf, errorAt }: { clientId: string; csrf: string; errorAt: ErrorAt }) {
  const t = await getTranslations("Admin");
  const input = `rounded-md border border-slate-400 px-3 py-2 ${invalidInput}`;
  return (
    <form method="post" action={FORMS.admin} className="mt-4 flex flex-wrap items-end gap-3">
      <ClientFormFields csrf={csrf} action="secret-add" clientId={clientId} />
      <LabelledField id="new-description" label={t("description")} error={errorAt("new-description")}>
        {(aria) => <input id="new-description" name="description" maxLength={200} className={input} {...aria} />}
      </LabelledField>
      <LabelledField id="new-expires" label={t("expiresAt")} error={errorAt("new-expires")}>
        {(aria) => <input id="new-expires" type="date" name="expires" className={input} {...aria} />}
      </LabelledField>
      <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
        {t("createSecret")}
      </button>
    </form>
  );
}

/** The secrets of a confidential client: each with its state and expiry, to disable; and a form for a new one. */
export async function ClientSecrets({
  secrets,
  clientId,
  csrf,
  errorAt,
}: {
  secrets: ClientSecretInfo[];
  clientId: string;
  csrf: string;
  errorAt: ErrorAt;
}) {
  const t = await getTranslations("Admin");
  return (
    <>
      {secrets.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t("noSecretsYet")}</p>
      ) : (
        <div className="mt-3">
          <DataTable
            columns={[
              t("secretId"),
              t("status"),
              t("createdAt"),
              t("expiresAt"),
              <span className="sr-only">{t("disable")}</span>,
            ]}
          >
            {secrets.map((secret) => (
              <SecretRow key={secret.id} secret={secret} clientId={clientId} csrf={csrf} errorAt={errorAt} />
            ))}
          </DataTable>
        </div>
      )}
      <NewSecretForm clientId={clientId} csrf={csrf} errorAt={errorAt} />
    </>
  );
}
