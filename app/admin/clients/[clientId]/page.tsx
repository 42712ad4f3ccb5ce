import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { clientDetails, type ClientSecretInfo } from "@/lib/data/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { newSecretShownOnce } from "@/lib/pages/flash-cookies";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { decodedSegment } from "@/lib/pages/path-segments";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary, buttonSecondary } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

const status = (secret: ClientSecretInfo) => (secret.disabledAt ? "statusDisabled" : secret.expiresAt && secret.expiresAt <= new Date() ? "statusExpired" : "statusActive");

export default async function AdminClientPage({ params, searchParams }: { params: Promise<{ clientId: string }>; searchParams: SearchParams }) {
  const clientId = decodedSegment((await params).clientId);
  const query = await searchParams;
  const details = clientId === undefined ? undefined : await pageData(`/admin/clients/${encodeURIComponent(clientId)}`, (actor) => clientDetails(actor, clientId));
  if (!details) notFound();
  const { client, metadata, secrets, company } = details;
  const [t, locale, format] = [await getTranslations("Admin"), await getLocale(), await getFormatter()];
  const csrf = await pageCsrfToken();
  const created = await newSecretShownOnce();
  const hidden = (action: string) => (
    <>
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="client_id" value={client.id} />
    </>
  );
  const cell = "px-3 py-2 text-left align-top";
  const day = (date: Date | null) => (date ? format.dateTime(date, { dateStyle: "medium" }) : t("never"));

  return (
    <div className="space-y-6">
      <a href="/admin/clients" className="text-sm text-brand-700 underline underline-offset-2">← {t("back")}</a>
      <h1 className="text-2xl font-semibold text-brand-800">{localizedText(client.names, locale, client.id)} <span className="text-base font-normal text-slate-600">({client.id}, {client.kind})</span></h1>
      {company ? <p data-company-id={company.id} className="text-sm text-slate-700">{t("actsForCompany", { company: company.name, id: company.id })}</p> : null}
      {single(query.error) ? <Alert>{t("rejected")} <code className="font-mono">{single(query.error)}</code></Alert> : null}
      {single(query.created) || single(query.saved) ? <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">{t(single(query.created) ? "created" : "saved")}</p> : null}
      {created && secrets.some((s) => s.id === created.secretId) ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4">
          <p className="text-sm text-amber-950">{t("secretCreated")}</p>
          <code data-new-secret className="mt-2 block break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900">{created.secret}</code>
        </div>
      ) : null}

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t("editMetadata")}</h2>
        <form method="post" action="/interaction/admin" className="mt-3 space-y-3">
          {hidden("update")}
          <label htmlFor="metadata" className="block text-sm font-medium text-slate-800">{t("metadata")}</label>
          <textarea id="metadata" name="metadata" rows={14} defaultValue={JSON.stringify(metadata, null, 2)} className="block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900" />
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>{t("saveButton")}</button>
        </form>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t("secrets")}</h2>
        {client.tokenEndpointAuthMethod === "none" ? (
          <p className="mt-2 text-sm text-slate-600">{t("noSecrets")}</p>
        ) : (
          <>
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-sm">
                <thead className="bg-slate-50 text-slate-700"><tr><th className={cell}>{t("secretId")}</th><th className={cell}>{t("status")}</th><th className={cell}>{t("createdAt")}</th><th className={cell}>{t("expiresAt")}</th><th className={cell} /></tr></thead>
                <tbody className="divide-y divide-slate-200">
                  {secrets.map((secret) => (
                    <tr key={secret.id} data-secret-id={secret.id}>
                      <td className={cell}><span className="font-mono text-xs">{secret.id}</span>{secret.description ? <span className="block text-slate-600">{secret.description}</span> : null}</td>
                      <td className={cell}>{t(status(secret))}</td>
                      <td className={cell}>{day(secret.createdAt)}</td>
                      <td className={cell}>
                        <form method="post" action="/interaction/admin" className="flex flex-wrap items-center gap-2">
                          {hidden("secret-expiry")}
                          <input type="hidden" name="secret_id" value={secret.id} />
                          <label className="sr-only" htmlFor={`expires-${secret.id}`}>{t("expiresAt")}</label>
                          <input id={`expires-${secret.id}`} type="date" name="expires" defaultValue={secret.expiresAt?.toISOString().slice(0, 10) ?? ""} className="rounded border border-slate-400 px-2 py-1" />
                          <button type="submit" className="rounded border border-slate-300 px-2 py-1 text-xs font-semibold">{t("setExpiry")}</button>
                        </form>
                      </td>
                      <td className={cell}>
                        {secret.disabledAt ? null : (
                          <form method="post" action="/interaction/admin">
                            {hidden("secret-disable")}
                            <input type="hidden" name="secret_id" value={secret.id} />
                            <button type="submit" className="rounded border border-red-300 px-2 py-1 text-xs font-semibold text-red-800">{t("disable")}</button>
                          </form>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <form method="post" action="/interaction/admin" className="mt-4 flex flex-wrap items-end gap-3">
              {hidden("secret-add")}
              <div>
                <label htmlFor="new-description" className="block text-sm font-medium text-slate-800">{t("description")}</label>
                <input id="new-description" name="description" className="mt-1 rounded-md border border-slate-400 px-3 py-2" />
              </div>
              <div>
                <label htmlFor="new-expires" className="block text-sm font-medium text-slate-800">{t("expiresAt")}</label>
                <input id="new-expires" type="date" name="expires" className="mt-1 rounded-md border border-slate-400 px-3 py-2" />
              </div>
              <button type="submit" className={`${buttonPrimary} sm:w-auto`}>{t("createSecret")}</button>
            </form>
          </>
        )}
      </section>

      <section className="rounded-lg border border-red-200 bg-white p-5">
        {single(query.remove) ? (
          <form method="post" action="/interaction/admin">
            {hidden("remove")}
            <p className="text-sm text-slate-800">{t("removeQuestion", { client: client.id })}</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <a href={`/admin/clients/${encodeURIComponent(client.id)}`} className={`${buttonSecondary} sm:w-auto`}>{t("cancel")}</a>
              <button type="submit" name="confirm" value="yes" className="inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-800">{t("confirmRemove")}</button>
            </div>
          </form>
        ) : (
          <form method="get">
            <button type="submit" name="remove" value="1" className={`${buttonSecondary} sm:w-auto`}>{t("removeClient")}</button>
          </form>
        )}
      </section>
    </div>
  );
}
