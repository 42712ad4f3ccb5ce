import { FORMS, PAGES } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import { isFormClientKind } from "@/lib/forms/client-registration-form";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { developerNotice } from "@/lib/pages/developer-notice";
import { newPartnerSecret, refusedDeveloperForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { partnerPortalView, type PartnerPortalView } from "@/lib/rights/partner-portal";
import { RegisterSection } from "@/app/admin/clients/register-section";
import { problemPlaces, problemText } from "@/app/admin/_parts/problem-text";
import { ApplicationChange } from "./application-change";
import { ApplicationsTable } from "./applications-table";
import { PartnerSecrets } from "./partner-secrets";

/** What the last form did to an application, as things stand now (only the company's own are named). */
async function Outcome({
  query,
  applications,
}: {
  query: Awaited<SearchParams>;
  applications: PartnerPortalView["applications"];
}) {
  const [t, locale] = [await getTranslations("Developer"), await getLocale()];
  const notice = developerNotice(
    { registered: single(query.registered), changed: single(query.changed), removed: single(query.removed) },
    applications,
  );
  if (!notice) return null;
  const named = applications.find(({ client }) => client.id === notice.clientId)?.client;
  const tone = notice.refused
    ? "border-amber-300 bg-amber-50 text-amber-900"
    : "border-green-200 bg-green-50 text-green-900";
  return (
    <p role="status" className={`rounded-md border px-3 py-2 text-sm ${tone}`}>
      {t(notice.key, { client: named ? localizedText(named.names, locale, named.id) : "" })}
    </p>
  );
}

export const dynamic = "force-dynamic";

export default async function DeveloperPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const view = await pageData(PAGES.developer, partnerPortalView);
  const [t, locale] = [await getTranslations("Developer"), await getLocale()];
  const refused = await refusedDeveloperForm();
  const draftKind = refused?.draft?.kind;
  const queryKind = single(query.kind);
  const kind = isFormClientKind(draftKind) ? draftKind : isFormClientKind(queryKind) ? queryKind : undefined;
  const created = await newPartnerSecret();
  const csrf = await pageCsrfToken();
  const secretRefusal =
    refused && refused.action.startsWith("secret-") ? await problemPlaces(refused.problem) : undefined;
  const changeRefusal = refused?.action === "update" || refused?.action === "remove" ? refused : undefined;
  const editing = view.applications.find((application) => application.client.id === single(query.edit));
  const secretError = secretRefusal?.general ?? secretRefusal?.at(refused?.problem.field ?? "");
  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold text-brand-800">{t("title", { company: view.company.name })}</h1>
        <p className="text-slate-700">{t("intro")}</p>
        <Outcome query={query} applications={view.applications} />
        {created ? (
          <p role="status" className="text-sm text-slate-700">
            <a href={`#secrets-${created.clientId}`} className="text-brand-700 underline underline-offset-2">
              {t("secrets.shownBelow")}
            </a>
          </p>
        ) : null}
        <ApplicationsTable applications={view.applications} />
      </section>
      {editing ? (
        <ApplicationChange
          clientId={editing.client.id}
          name={localizedText(editing.client.names, locale, editing.client.id)}
          text={changeRefusal?.draft?.metadata ?? JSON.stringify(editing.metadata, null, 2)}
          csrf={csrf}
          asking={Boolean(single(query.remove))}
          error={changeRefusal ? await problemText(changeRefusal.problem) : undefined}
        />
      ) : null}
      <RegisterSection
        kind={kind}
        refused={refused?.action === "register" ? refused : undefined}
        scopes={view.scopes}
        csrf={csrf}
        target={{ page: PAGES.developer, action: FORMS.developer, partner: true }}
      />
      {view.applications.map(({ client, secrets }) =>
        secrets ? (
          <section
            key={client.id}
            aria-labelledby={`secrets-${client.id}`}
            className="rounded-lg border border-slate-200 bg-white p-5"
          >
            <h2 id={`secrets-${client.id}`} className="text-lg font-semibold text-slate-900">
              {t("secrets.title", { client: localizedText(client.names, locale, client.id) })}
            </h2>
            <PartnerSecrets
              clientId={client.id}
              secrets={secrets}
              newSecret={created?.clientId === client.id ? created.secret : undefined}
              csrf={csrf}
              error={secretError}
            />
          </section>
        ) : null,
      )}
    </div>
  );
}
