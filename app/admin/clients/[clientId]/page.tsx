import { PAGES, adminClientPage } from "@/lib/http/paths";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { clientDetails } from "@/lib/rights/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { newSecretShownOnce, refusedAdminForm } from "@/lib/pages/shown-once";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { decodedSegment } from "@/lib/pages/path-segments";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { Alert } from "@/app/_components/ui";
import { problemPlaces } from "@/app/admin/_parts/problem-text";
import { ClientRemoval } from "./client-removal";
import { ClientReview } from "./client-review";
import { ClientSecrets } from "./client-secrets";
import { DeveloperHandover } from "./developer-handover";
import { MetadataEdit } from "./metadata-edit";

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
      : await pageData(adminClientPage(clientId), (actor) => clientDetails(actor, clientId));
  if (!details) notFound();
  const { client, metadata, secrets, company, discoveryUrl, review } = details;
  const [t, locale] = [await getTranslations("Admin"), await getLocale()];
  const csrf = await pageCsrfToken();
  const created = await newSecretShownOnce();
  const newSecret = created && secrets.some((s) => s.id === created.secretId) ? created.secret : undefined;
  const refused = await refusedAdminForm();
  const places = await problemPlaces(refused?.problem);

  return (
    <div className="space-y-6">
      <a href={PAGES.adminClients} className="text-sm text-brand-700 underline underline-offset-2">
        ← {t("back")}
      </a>
      <h1 className="break-words text-2xl font-semibold text-brand-800">
        {localizedText(client.names, locale, client.id)}{" "}
        <span className="block break-all text-base font-normal text-slate-600 sm:inline">
          ({client.id}, {t(`kinds.${client.kind}.name`)})
        </span>
      </h1>
      {company ? (
        <p data-company-id={company.id} className="text-sm text-slate-700">
          {t("actsForCompany", { company: company.name, id: company.id })}
        </p>
      ) : null}
      {places.general ? <Alert>{places.general}</Alert> : null}
      {single(query.reviewed) === "approve" || single(query.reviewed) === "reject" ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(`review.reviewed.${single(query.reviewed) as "approve" | "reject"}`)}
        </p>
      ) : null}
      {review && (review.owner || review.status !== "approved") ? (
        <ClientReview
          clientId={client.id}
          review={review}
          asked={
            review.pendingMetadata ? JSON.stringify(review.pendingMetadata, null, 2) : JSON.stringify(metadata, null, 2)
          }
          csrf={csrf}
        />
      ) : null}
      {single(query.created) || single(query.saved) ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(single(query.created) ? "created" : "saved")}
        </p>
      ) : null}
      {single(query.created) || newSecret ? (
        <DeveloperHandover
          discoveryUrl={discoveryUrl}
          clientId={client.id}
          secret={newSecret}
          publicClient={client.tokenEndpointAuthMethod === "none"}
          redirectUris={client.redirectUris}
          scopes={client.allowedScopes}
        />
      ) : null}
      <MetadataEdit
        clientId={client.id}
        csrf={csrf}
        text={
          refused?.action === "update" && refused.draft?.metadata !== undefined
            ? refused.draft.metadata
            : JSON.stringify(metadata, null, 2)
        }
        error={places.at("metadata")}
      />
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t("secrets")}</h2>
        {client.tokenEndpointAuthMethod === "none" ? (
          <p className="mt-2 text-sm text-slate-600">{t("noSecrets")}</p>
        ) : (
          <ClientSecrets secrets={secrets} clientId={client.id} csrf={csrf} errorAt={places.at} />
        )}
      </section>
      <ClientRemoval clientId={client.id} csrf={csrf} asking={Boolean(single(query.remove))} />
    </div>
  );
}
