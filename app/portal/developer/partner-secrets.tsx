/**
 * The secrets of one of a vendor's pending or approved server applications: a new one (shown once, as the first one is
 * after registering), when each was created, expires and was last used, disabling one, and how two secrets valid at
 * once let an application rotate without downtime.
 */
import { FORMS } from "@/lib/http/paths";
import type { ReactNode } from "react";
import { getFormatter, getTranslations } from "next-intl/server";
import type { ClientSecretInfo } from "@/lib/admin/client-registry";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { CopyButton } from "@/app/_components/copy-button";
import { buttonSecondary } from "@/app/_components/ui";
import { DataActions, DataCell, DataRow, DataTable } from "@/app/_components/data-table";

const state = (secret: ClientSecretInfo) =>
  secret.disabledAt ? "disabled" : secret.expiresAt && secret.expiresAt <= new Date() ? "expired" : "active";

async function SecretRow({ clientId, secret, csrf }: { clientId: string; secret: ClientSecretInfo; csrf: string }) {
  const [t, format] = [await getTranslations("Developer.secrets"), await getFormatter()];
  const day = (date: Date | null) => (date ? format.dateTime(date, { dateStyle: "medium" }) : "—");
  return (
    <DataRow data-secret-id={secret.id} data-state={state(secret)}>
      <DataCell>{secret.description ?? t("noDescription")}</DataCell>
      <DataCell label={t("createdLabel")}>{day(secret.createdAt)}</DataCell>
      <DataCell label={t("expiresLabel")}>{secret.expiresAt ? day(secret.expiresAt) : t("never")}</DataCell>
      <DataCell label={t("lastUsedLabel")}>
        {secret.lastUsedAt
          ? format.dateTime(secret.lastUsedAt, { dateStyle: "medium", timeStyle: "short" })
          : t("notUsed")}
      </DataCell>
      <DataCell label={t("stateLabel")}>{t(`states.${state(secret)}`)}</DataCell>
      <DataActions>
        {state(secret) === "active" ? (
          <form method="post" action={FORMS.developer}>
            <input type="hidden" name={CSRF_FIELD} value={csrf} />
            <input type="hidden" name="client_id" value={clientId} />
            <input type="hidden" name="secret_id" value={secret.id} />
            <button
              type="submit"
              name="action"
              value="secret-disable"
              aria-label={t("disableNamed", { secret: secret.description ?? secret.id })}
              className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              {t("disable")}
            </button>
          </form>
        ) : null}
      </DataActions>
    </DataRow>
  );
}

async function NewSecretForm({ clientId, csrf, error }: { clientId: string; csrf: string; error?: ReactNode }) {
  const t = await getTranslations("Developer.secrets");
  const id = (name: string) => `${name}-${clientId}`;
  return (
    <form method="post" action={FORMS.developer} className="grid gap-3 sm:grid-cols-3 sm:items-end">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="client_id" value={clientId} />
      <div>
        <label htmlFor={id("description")} className="block text-sm font-medium text-slate-800">
          {t("description")}
        </label>
        <input
          id={id("description")}
          name="description"
          maxLength={200}
          className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-sm text-slate-900"
        />
      </div>
      <div>
        <label htmlFor={id("expires")} className="block text-sm font-medium text-slate-800">
          {t("expiresOptional")}
        </label>
        <input
          id={id("expires")}
          name="expires"
          type="date"
          aria-describedby={error ? id("secret-error") : undefined}
          className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-sm text-slate-900"
        />
      </div>
      <button type="submit" name="action" value="secret-add" className={`${buttonSecondary} sm:w-auto`}>
        {t("add")}
      </button>
      {error ? (
        <p id={id("secret-error")} role="alert" className="text-sm font-medium text-red-800 sm:col-span-3">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export async function PartnerSecrets({
  clientId,
  secrets,
  newSecret,
  csrf,
  error,
}: {
  clientId: string;
  secrets: ClientSecretInfo[];
  /** the secret created just now for this application, shown this once */
  newSecret?: string;
  csrf: string;
  error?: ReactNode;
}) {
  const t = await getTranslations("Developer.secrets");
  return (
    <div className="mt-3 space-y-3" data-secrets-of={clientId}>
      <p className="text-sm text-slate-700">{t("rotation")}</p>
      {newSecret ? (
        <div role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
          <p className="font-medium">{t("shownOnce")}</p>
          <div className="mt-2 flex flex-col items-start gap-2 sm:flex-row sm:items-center">
            <code
              data-new-secret
              className="block w-full min-w-0 flex-1 select-all break-all rounded bg-white px-3 py-2 font-mono"
            >
              {newSecret}
            </code>
            <CopyButton text={newSecret} label={t("copy")} copied={t("copied")} failed={t("copyFailed")} />
          </div>
        </div>
      ) : null}
      {secrets.length > 0 ? (
        <DataTable
          columns={[
            t("description"),
            t("created"),
            t("expires"),
            t("lastUsed"),
            t("state"),
            <span className="sr-only">{t("disable")}</span>,
          ]}
        >
          {secrets.map((secret) => (
            <SecretRow key={secret.id} clientId={clientId} secret={secret} csrf={csrf} />
          ))}
        </DataTable>
      ) : null}
      <NewSecretForm clientId={clientId} csrf={csrf} error={error} />
    </div>
  );
}
