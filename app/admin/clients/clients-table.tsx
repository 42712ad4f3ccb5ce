import { adminClientPage } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import type { RegisteredClient } from "@/lib/store/models/client";
import type { ClientReviewState } from "@/lib/rights/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { DataTable, DataRow, DataCell } from "@/app/_components/data-table";

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
      <DataTable columns={[t("clientId"), t("name"), t("kind"), t("grants"), t("review.owner"), t("review.status")]}>
        {clients.map((client) => (
          <DataRow key={client.id} data-client-id={client.id}>
            <DataCell className="break-all">
              <a href={adminClientPage(client.id)} className="font-medium text-brand-700 underline underline-offset-2">
                {client.id}
              </a>
            </DataCell>
            <DataCell label={t("nameLabel")}>{localizedText(client.names, locale)}</DataCell>
            <DataCell label={t("kindLabel")}>{t(`kinds.${client.kind}.name`)}</DataCell>
            <DataCell className="break-words" label={t("grantsLabel")}>
              {client.grantTypes.join(", ")}
            </DataCell>
            <DataCell label={t("review.ownerLabel")}>{states.get(client.id)?.owner?.name ?? "—"}</DataCell>
            <DataCell data-status={reviewStatus(states.get(client.id))} label={t("review.statusLabel")}>
              {t(`review.statuses.${reviewStatus(states.get(client.id))}`)}
            </DataCell>
          </DataRow>
        ))}
      </DataTable>
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
