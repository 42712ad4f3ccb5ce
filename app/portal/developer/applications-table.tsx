/** The vendor's applications with status and operators' note; each links to its quick start and its change. */
import { developerApplicationPage, PAGES } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import type { PartnerPortalView } from "@/lib/rights/partner-portal";
import { DataTable, DataRow, DataCell, DataActions, Identifier } from "@/app/_components/data-table";

export async function ApplicationsTable({ applications }: { applications: PartnerPortalView["applications"] }) {
  const [t, admin, locale] = [await getTranslations("Developer"), await getTranslations("Admin"), await getLocale()];
  return applications.length === 0 ? (
    <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
      {t("none")}
    </p>
  ) : (
    <div className="rounded-lg border border-slate-200 bg-white">
      <DataTable columns={[admin("name"), admin("clientId"), admin("kind"), t("status"), t("actions")]}>
        {applications.map(({ client, status, changeWaiting, reviewNote }) => (
          <DataRow key={client.id} data-client-id={client.id} data-status={status}>
            <DataCell className="font-medium text-slate-900">
              <a
                href={developerApplicationPage(client.id)}
                className="text-brand-700 underline underline-offset-2"
                data-quick-start-link
              >
                {localizedText(client.names, locale, client.id)}
              </a>
            </DataCell>
            <DataCell label={admin("clientIdLabel")}>
              <Identifier value={client.id} className="font-mono" />
            </DataCell>
            <DataCell label={admin("kindLabel")}>{admin(`kinds.${client.kind}.name`)}</DataCell>
            <DataCell label={t("statusLabel")}>
              {t(`statuses.${status === "approved" || status === "rejected" ? status : "pending"}`)}
              {changeWaiting ? <span className="block text-sm text-slate-600">{t("changeWaiting")}</span> : null}
              {reviewNote ? (
                <span className="block text-sm text-slate-600">{t("reviewNote", { note: reviewNote })}</span>
              ) : null}
            </DataCell>
            <DataActions>
              <a
                href={`${PAGES.developer}?${new URLSearchParams({ edit: client.id })}#change`}
                aria-label={t("changeNamed", { client: localizedText(client.names, locale, client.id) })}
                className="text-sm text-brand-700 underline underline-offset-2"
              >
                {t("change")}
              </a>
            </DataActions>
          </DataRow>
        ))}
      </DataTable>
    </div>
  );
}
