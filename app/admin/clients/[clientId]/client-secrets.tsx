import { getFormatter, getTranslations } from "next-intl/server";
import type { ClientSecretInfo } from "@/lib/rights/operator-clients";
import { buttonPrimary } from "@/app/_components/ui";
import { ClientFormFields } from "./client-form-fields";

const cell = "px-3 py-2 text-left align-top";
const status = (secret: ClientSecretInfo) =>
  secret.disabledAt
    ? "statusDisabled"
    : secret.expiresAt && secret.expiresAt <= new Date()
      ? "statusExpired"
      : "statusActive";

async function SecretRow({ secret, clientId, csrf }: { secret: ClientSecretInfo; clientId: string; csrf: string }) {
  const [t, format] = [await getTranslations("Admin"), await getFormatter()];
  return (
    <tr data-secret-id={secret.id}>
      <td className={cell}>
        <span className="font-mono text-xs">{secret.id}</span>
        {secret.description ? <span className="block text-slate-600">{secret.description}</span> : null}
      </td>
      <td className={cell}>{t(status(secret))}</td>
      <td className={cell}>{format.dateTime(secret.createdAt, { dateStyle: "medium" })}</td>
      <td className={cell}>
        <form method="post" action="/interaction/admin" className="flex flex-wrap items-center gap-2">
          <ClientFormFields csrf={csrf} action="secret-expiry" clientId={clientId} />
          <input type="hidden" name="secret_id" value={secret.id} />
          <label className="sr-only" htmlFor={`expires-${secret.id}`}>
            {t("expiresAt")}
          </label>
          <input
            id={`expires-${secret.id}`}
            type="date"
            name="expires"
            defaultValue={secret.expiresAt?.toISOString().slice(0, 10) ?? ""}
            className="rounded border border-slate-400 px-2 py-1"
          />
          <button type="submit" className="rounded border border-slate-300 px-2 py-1 text-xs font-semibold">
            {t("setExpiry")}
          </button>
        </form>
      </td>
      <td className={cell}>
        {secret.disabledAt ? null : (
          <form method="post" action="/interaction/admin">
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
      </td>
    </tr>
  );
}

/** The secrets of a confidential client: each with its state and expiry, to disable; and a form for a new one. */
export async function ClientSecrets({
  secrets,
  clientId,
  csrf,
}: {
  secrets: ClientSecretInfo[];
  clientId: string;
  csrf: string;
}) {
  const t = await getTranslations("Admin");
  return (
    <>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th className={cell}>{t("secretId")}</th>
              <th className={cell}>{t("status")}</th>
              <th className={cell}>{t("createdAt")}</th>
              <th className={cell}>{t("expiresAt")}</th>
              <th className={cell} />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {secrets.map((secret) => (
              <SecretRow key={secret.id} secret={secret} clientId={clientId} csrf={csrf} />
            ))}
          </tbody>
        </table>
      </div>
      <form method="post" action="/interaction/admin" className="mt-4 flex flex-wrap items-end gap-3">
        <ClientFormFields csrf={csrf} action="secret-add" clientId={clientId} />
        <div>
          <label htmlFor="new-description" className="block text-sm font-medium text-slate-800">
            {t("description")}
          </label>
          <input
            id="new-description"
            name="description"
            className="mt-1 rounded-md border border-slate-400 px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor="new-expires" className="block text-sm font-medium text-slate-800">
            {t("expiresAt")}
          </label>
          <input
            id="new-expires"
            type="date"
            name="expires"
            className="mt-1 rounded-md border border-slate-400 px-3 py-2"
          />
        </div>
        <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
          {t("createSecret")}
        </button>
      </form>
    </>
  );
}
