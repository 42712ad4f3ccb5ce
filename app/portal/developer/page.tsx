import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import { isFormClientKind } from "@/lib/forms/client-registration-form";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { DEVELOPER_PATH } from "@/lib/pages/paths";
import { newPartnerSecret, refusedDeveloperForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { partnerPortalView } from "@/lib/rights/partner-portal";
import { stacked } from "@/app/_components/stacked-table";
import { RegisterSection } from "@/app/admin/clients/register-section";
import { problemPlaces } from "@/app/admin/_parts/problem-text";
import { PartnerSecrets } from "./partner-secrets";

export const dynamic = "force-dynamic";

export default async function DeveloperPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const view = await pageData(DEVELOPER_PATH, partnerPortalView);
  const [t, admin, locale] = [await getTranslations("Developer"), await getTranslations("Admin"), await getLocale()];
  const refused = await refusedDeveloperForm();
  const draftKind = refused?.draft?.kind;
  const queryKind = single(query.kind);
  const kind = isFormClientKind(draftKind) ? draftKind : isFormClientKind(queryKind) ? queryKind : undefined;
  const registered = single(query.registered);
  const created = await newPartnerSecret();
  const csrf = await pageCsrfToken();
  const secretRefusal = refused && refused.action !== "register" ? await problemPlaces(refused.problem) : undefined;
  const secretError = secretRefusal?.general ?? secretRefusal?.at(refused?.problem.field ?? "");
  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold text-brand-800">{t("title", { company: view.company.name })}</h1>
        <p className="text-slate-700">{t("intro")}</p>
        {registered && view.applications.some((application) => application.client.id === registered) ? (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
            {t("registered", { client: registered })}
          </p>
        ) : null}
        {view.applications.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
            {t("none")}
          </p>
        ) : (
          <div className="rounded-lg border border-slate-200 bg-white">
            <table className={stacked.table}>
              <thead className={stacked.head}>
                <tr>
                  <th className={stacked.th}>{admin("name")}</th>
                  <th className={stacked.th}>{admin("clientId")}</th>
                  <th className={stacked.th}>{admin("kind")}</th>
                  <th className={stacked.th}>{t("status")}</th>
                </tr>
              </thead>
              <tbody className={stacked.body}>
                {view.applications.map(({ client, status, changeWaiting, reviewNote }) => (
                  <tr key={client.id} data-client-id={client.id} data-status={status} className={stacked.row}>
                    <td className={`${stacked.cell} font-medium text-slate-900`}>
                      {localizedText(client.names, locale, client.id)}
                    </td>
                    <td className={`${stacked.cell} break-all`}>
                      <span className={stacked.label}>{admin("clientId")}:</span>
                      <code>{client.id}</code>
                    </td>
                    <td className={stacked.cell}>
                      <span className={stacked.label}>{admin("kind")}:</span>
                      {admin(`kinds.${client.kind}.name`)}
                    </td>
                    <td className={stacked.cell}>
                      <span className={stacked.label}>{t("status")}:</span>
                      {t(`statuses.${status === "approved" || status === "rejected" ? status : "pending"}`)}
                      {changeWaiting ? (
                        <span className="block text-sm text-slate-600">{t("changeWaiting")}</span>
                      ) : null}
                      {reviewNote ? (
                        <span className="block text-sm text-slate-600">{t("reviewNote", { note: reviewNote })}</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
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
      <RegisterSection
        kind={kind}
        refused={refused?.action === "register" ? refused : undefined}
        scopes={view.scopes}
        csrf={csrf}
        target={{ page: DEVELOPER_PATH, action: "/interaction/developer", partner: true }}
      />
    </div>
  );
}
