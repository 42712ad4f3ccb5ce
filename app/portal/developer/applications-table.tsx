/** The vendor's applications with their status, the operator's note and a way to change each. */
import { PAGES } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import type { PartnerPortalView } from "@/lib/rights/partner-portal";
import { stacked } from "@/app/_components/stacked-table";

export async function ApplicationsTable({ applications }: { applications: PartnerPortalView["applications"] }) {
  const [t, admin, locale] = [await getTranslations("Developer"), await getTranslations("Admin"), await getLocale()];
  return applications.length === 0 ? (
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
            <th className={stacked.th}>{t("actions")}</th>
          </tr>
        </thead>
        <tbody className={stacked.body}>
          {applications.map(({ client, status, changeWaiting, reviewNote }) => (
            <tr key={client.id} data-client-id={client.id} data-status={status} className={stacked.row}>
              <td className={`${stacked.cell} font-medium text-slate-900`}>
                {localizedText(client.names, locale, client.id)}
              </td>
              <td className={`${stacked.cell} break-all`}>
                <span className={stacked.label}>{admin("clientIdLabel")}</span>
                <code>{client.id}</code>
              </td>
              <td className={stacked.cell}>
                <span className={stacked.label}>{admin("kindLabel")}</span>
                {admin(`kinds.${client.kind}.name`)}
              </td>
              <td className={stacked.cell}>
                <span className={stacked.label}>{t("statusLabel")}</span>
                {t(`statuses.${status === "approved" || status === "rejected" ? status : "pending"}`)}
                {changeWaiting ? <span className="block text-sm text-slate-600">{t("changeWaiting")}</span> : null}
                {reviewNote ? (
                  <span className="block text-sm text-slate-600">{t("reviewNote", { note: reviewNote })}</span>
                ) : null}
              </td>
              <td className={stacked.cell}>
                <a
                  href={`${PAGES.developer}?${new URLSearchParams({ edit: client.id })}#change`}
                  aria-label={t("changeNamed", { client: localizedText(client.names, locale, client.id) })}
                  className="text-sm text-brand-700 underline underline-offset-2"
                >
                  {t("change")}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
