import { getLocale, getTranslations } from "next-intl/server";
import { listClients } from "@/lib/rights/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

const EXAMPLE = JSON.stringify(
  {
    client_name: "Lens shop",
    "client_name#de": "Glasladen",
    redirect_uris: ["https://shop.example.com/callback"],
    offline_access: true,
  },
  null,
  2,
);

export default async function AdminClientsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const clients = await pageData("/admin/clients", listClients);
  const [t, locale] = [await getTranslations("Admin"), await getLocale()];
  const cell = "px-3 py-2 text-left align-top";
  return (
    <div className="space-y-8">
      <section>
        <h1 className="text-2xl font-semibold text-brand-800">{t("clients")}</h1>
        {single(query.removed) ? (
          <p
            role="status"
            className="mt-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
          >
            {t("removed", { client: single(query.removed)! })}
          </p>
        ) : null}
        {clients.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
            {t("noClients")}
          </p>
        ) : (
          <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="w-full text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th className={cell}>{t("clientId")}</th>
                  <th className={cell}>{t("name")}</th>
                  <th className={cell}>{t("kind")}</th>
                  <th className={cell}>{t("grants")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {clients.map((client) => (
                  <tr key={client.id} data-client-id={client.id}>
                    <td className={cell}>
                      <a
                        href={`/admin/clients/${encodeURIComponent(client.id)}`}
                        className="font-medium text-brand-700 underline underline-offset-2"
                      >
                        {client.id}
                      </a>
                    </td>
                    <td className={cell}>{localizedText(client.names, locale)}</td>
                    <td className={cell}>{client.kind}</td>
                    <td className={cell}>{client.grantTypes.join(", ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t("register")}</h2>
        {single(query.error) ? (
          <div className="mt-3">
            <Alert>
              {t("rejected")} <code className="font-mono">{single(query.error)}</code>
            </Alert>
          </div>
        ) : null}
        <form method="post" action="/interaction/admin" className="mt-3 space-y-3">
          <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
          <input type="hidden" name="action" value="register" />
          <label htmlFor="metadata" className="block text-sm font-medium text-slate-800">
            {t("metadata")}
          </label>
          <p id="metadata-hint" className="text-sm text-slate-600">
            {t("metadataHint")}
          </p>
          <textarea
            id="metadata"
            name="metadata"
            rows={10}
            required
            aria-describedby="metadata-hint"
            defaultValue={single(query.draft) ?? ""}
            placeholder={EXAMPLE}
            className="block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900"
          />
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
            {t("registerButton")}
          </button>
        </form>
      </section>
    </div>
  );
}
