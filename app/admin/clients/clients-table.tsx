import { adminClientPage } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import type { RegisteredClient } from "@/lib/store/models/client";
import type { ClientReviewState } from "@/lib/rights/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { stacked } from "@/app/_components/stacked-table";

/** The registered clients: a table on wide screens, a card per client on a phone. */
export async function ClientsTable({
  clients,
  states,
}: {
  clients: RegisteredClient[];
  states: Map<string, ClientReviewState>;
}) {
  const [t, locale] = [await getTranslations("Admin"), await getLocale()];
  if (clients.length === 0)
    return (
      <p className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
        {t("noClients")}
      </p>
    );
  return (
    <div className="mt-4 rounded-lg border border-slate-200 bg-white">
      <table className={stacked.table}>
        <thead className={stacked.head}>
          <tr>
            <th className={stacked.th}>{t("clientId")}</th>
            <th className={stacked.th}>{t("name")}</th>
            <th className={stacked.th}>{t("kind")}</th>
            <th className={stacked.th}>{t("grants")}</th>
            <th className={stacked.th}>{t("review.owner")}</th>
            <th className={stacked.th}>{t("review.status")}</th>
          </tr>
        </thead>
        <tbody className={stacked.body}>
          {clients.map((client) => (
            <tr key={client.id} data-client-id={client.id} className={stacked.row}>
              <td className={`${stacked.cell} break-all`}>
                <a
                  href={adminClientPage(client.id)}
                  className="font-medium text-brand-700 underline underline-offset-2"
                >
                  {client.id}
                </a>
              </td>
              <td className={stacked.cell}>
                <span className={stacked.label}>{t("nameLabel")}</span>
                {localizedText(client.names, locale)}
              </td>
              <td className={stacked.cell}>
                <span className={stacked.label}>{t("kindLabel")}</span>
                {t(`kinds.${client.kind}.name`)}
              </td>
              <td className={`${stacked.cell} break-words`}>
                <span className={stacked.label}>{t("grantsLabel")}</span>
                {client.grantTypes.join(", ")}
              </td>
              <td className={stacked.cell}>
                <span className={stacked.label}>{t("review.ownerLabel")}</span>
                {states.get(client.id)?.owner?.name ?? "—"}
              </td>
              <td className={stacked.cell} data-status={reviewStatus(states.get(client.id))}>
                <span className={stacked.label}>{t("review.statusLabel")}</span>
                {t(`review.statuses.${reviewStatus(states.get(client.id))}`)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** approved, pending, rejected, or changeWaiting for an approved client with a change waiting. */
export function reviewStatus(
  state: ClientReviewState | undefined,
): "approved" | "pending" | "rejected" | "changeWaiting" {
  if (!state) return "approved";
  if (state.status === "approved") return state.pendingMetadata ? "changeWaiting" : "approved";
  return state.status === "pending" ? "pending" : "rejected";
}
