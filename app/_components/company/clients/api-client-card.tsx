/**
 * One of the company's API clients: its name, client ID and scopes, a secret made just now (shown this once), its
 * secrets with their dates and a way to disable each, a new secret for rotation, and removal.
 */
import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { CompanyClientJson } from "@/lib/rights/company-clients";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { NewSecret } from "@/app/_components/new-secret";
import { DataActions, DataCell, DataRow, DataTable } from "@/app/_components/data-table";
import { smallButton } from "@/app/_components/company/people-table";

type Secret = CompanyClientJson["secrets"][number];

const stateOf = (secret: Secret, now: Date) =>
  secret.disabled_at
    ? "disabled"
    : secret.expires_at && new Date(secret.expires_at) <= now
      ? "expired"
      : ("active" as const);

/** One action on the client: a small form with the CSRF token and the client's id. */
function ClientForm({
  action,
  clientId,
  secretId,
  csrf,
  children,
}: {
  action: string;
  clientId: string;
  secretId?: string;
  csrf: string;
  children: React.ReactNode;
}) {
  return (
    <form method="post" action={FORMS.companyClients}>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="client_id" value={clientId} />
      {secretId ? <input type="hidden" name="secret_id" value={secretId} /> : null}
      {children}
    </form>
  );
}

async function NewClientSecret({ name, secret }: { name: string; secret: string }) {
  const t = await getTranslations("CompanyClients");
  const labels = { copy: t("copy"), copied: t("copied"), failed: t("copyFailed") };
  return <NewSecret title={t("newSecret", { name })} secret={secret} labels={labels} />;
}

async function Secrets({ client, csrf }: { client: CompanyClientJson; csrf: string }) {
  const [t, format] = [await getTranslations("CompanyClients"), await getFormatter()];
  const now = new Date();
  const day = (date: string | null, none: string) =>
    date ? format.dateTime(new Date(date), { dateStyle: "medium" }) : none;
  return (
    <DataTable
      columns={[
        t("secretCreated"),
        t("secretExpires"),
        t("secretLastUsed"),
        t("secretState"),
        <span className="sr-only">{t("disableSecret")}</span>,
      ]}
    >
      {client.secrets.map((secret) => {
        const state = stateOf(secret, now);
        return (
          <DataRow key={secret.id} data-secret-id={secret.id} data-state={state}>
            <DataCell>{day(secret.created_at, "—")}</DataCell>
            <DataCell label={t("secretExpires")}>{day(secret.expires_at, t("never"))}</DataCell>
            <DataCell label={t("secretLastUsed")}>{day(secret.last_used_at, t("notUsed"))}</DataCell>
            <DataCell label={t("secretState")}>{t(`states.${state}`)}</DataCell>
            <DataActions>
              {state === "active" ? (
                <ClientForm action="secret-disable" clientId={client.client_id} secretId={secret.id} csrf={csrf}>
                  <button
                    type="submit"
                    className={smallButton}
                    aria-label={t("disableSecretNamed", { date: day(secret.created_at, "—") })}
                  >
                    {t("disableSecret")}
                  </button>
                </ClientForm>
              ) : null}
            </DataActions>
          </DataRow>
        );
      })}
    </DataTable>
  );
}

export async function ApiClientCard({
  client,
  csrf,
  newSecret,
}: {
  client: CompanyClientJson;
  csrf: string;
  /** a secret of this client made just now, shown this once */
  newSecret?: string;
}) {
  const [t, scopes, format] = [
    await getTranslations("CompanyClients"),
    await getTranslations("Scopes"),
    await getFormatter(),
  ];
  return (
    <li data-api-client={client.client_id} className="space-y-3 rounded-lg border border-slate-200 bg-white p-5">
      <div>
        <h3 className="text-base font-semibold break-words text-slate-900">{client.name}</h3>
        <p className="text-xs text-slate-600">
          {t("created", { date: format.dateTime(new Date(client.created_at), { dateStyle: "medium" }) })}
        </p>
      </div>
      <dl className="space-y-1 text-sm">
        <div className="flex flex-wrap gap-2">
          <dt className="font-medium text-slate-700">{t("clientId")}</dt>
          <dd>
            <code className="break-all text-slate-900">{client.client_id}</code>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700">{t("scopes")}</dt>
          <dd>
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-800">
              {client.scopes.map((scope) => (
                <li key={scope} data-scope={scope}>
                  {scopes(`${scope.replaceAll(".", "_")}.name` as "openid.name")}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
      {newSecret ? <NewClientSecret name={client.name} secret={newSecret} /> : null}
      <h4 className="text-sm font-semibold text-slate-800">{t("secretsTitle")}</h4>
      <p className="text-sm text-slate-600">{t("rotation")}</p>
      {client.secrets.length > 0 ? <Secrets client={client} csrf={csrf} /> : null}
      <div className="flex flex-wrap items-start gap-2">
        <ClientForm action="secret-add" clientId={client.client_id} csrf={csrf}>
          <button type="submit" className={smallButton}>
            {t("addSecret")}
          </button>
        </ClientForm>
        <details className="text-xs">
          <summary className="cursor-pointer py-1 font-semibold text-red-800">{t("remove")}</summary>
          <ClientForm action="remove" clientId={client.client_id} csrf={csrf}>
            <button
              type="submit"
              className="mt-1 rounded-md bg-red-700 px-2.5 py-1 text-xs font-semibold text-white hover:bg-red-800"
            >
              {t("confirmRemove", { name: client.name })}
            </button>
          </ClientForm>
        </details>
      </div>
    </li>
  );
}
