import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { clientDetails } from "@/lib/rights/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { newSecretShownOnce } from "@/lib/pages/shown-once";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { decodedSegment } from "@/lib/pages/path-segments";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert, buttonPrimary } from "@/app/_components/ui";
import { ClientFormFields } from "./client-form-fields";
import { ClientRemoval } from "./client-removal";
import { ClientSecrets } from "./client-secrets";

export const dynamic = "force-dynamic";

export default async function AdminClientPage({
  params,
  searchParams,
}: {
  params: Promise<{ clientId: string }>;
  searchParams: SearchParams;
}) {
  const clientId = decodedSegment((await params).clientId);
  const query = await searchParams;
  const details =
    clientId === undefined
      ? undefined
      : await pageData(`/admin/clients/${encodeURIComponent(clientId)}`, (actor) => clientDetails(actor, clientId));
  if (!details) notFound();
  const { client, metadata, secrets, company } = details;
  const [t, locale] = [await getTranslations("Admin"), await getLocale()];
  const csrf = await pageCsrfToken();
  const created = await newSecretShownOnce();

  return (
    <div className="space-y-6">
      <a href="/admin/clients" className="text-sm text-brand-700 underline underline-offset-2">
        ← {t("back")}
      </a>
      <h1 className="text-2xl font-semibold text-brand-800">
        {localizedText(client.names, locale, client.id)}{" "}
        <span className="text-base font-normal text-slate-600">
          ({client.id}, {client.kind})
        </span>
      </h1>
      {company ? (
        <p data-company-id={company.id} className="text-sm text-slate-700">
          {t("actsForCompany", { company: company.name, id: company.id })}
        </p>
      ) : null}
      {single(query.error) ? (
        <Alert>
          {t("rejected")} <code className="font-mono">{single(query.error)}</code>
        </Alert>
      ) : null}
      {single(query.created) || single(query.saved) ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(single(query.created) ? "created" : "saved")}
        </p>
      ) : null}
      {created && secrets.some((s) => s.id === created.secretId) ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4">
          <p className="text-sm text-amber-950">{t("secretCreated")}</p>
          <code
            data-new-secret
            className="mt-2 block break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900"
          >
            {created.secret}
          </code>
        </div>
      ) : null}

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t("editMetadata")}</h2>
        <form method="post" action="/interaction/admin" className="mt-3 space-y-3">
          <ClientFormFields csrf={csrf} action="update" clientId={client.id} />
          <label htmlFor="metadata" className="block text-sm font-medium text-slate-800">
            {t("metadata")}
          </label>
          <textarea
            id="metadata"
            name="metadata"
            rows={14}
            defaultValue={JSON.stringify(metadata, null, 2)}
            className="block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900"
          />
          <button type="submit" className={`${buttonPrimary} sm:w-auto`}>
            {t("saveButton")}
          </button>
        </form>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t("secrets")}</h2>
        {client.tokenEndpointAuthMethod === "none" ? (
          <p className="mt-2 text-sm text-slate-600">{t("noSecrets")}</p>
        ) : (
          <ClientSecrets secrets={secrets} clientId={client.id} csrf={csrf} />
        )}
      </section>

      <ClientRemoval clientId={client.id} csrf={csrf} asking={Boolean(single(query.remove))} />
    </div>
  );
}
