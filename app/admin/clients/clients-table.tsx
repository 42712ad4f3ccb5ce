import { adminClientPage } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { Fragment } from "react";
import type { RegisteredClient } from "@/lib/store/models/client";
import type { ClientReviewState } from "@/lib/rights/operator-clients";
import { localizedText } from "@/lib/i18n/localized-text";
import { DataTable, DataRow, DataCell, DataActions, Identifier } from "@/app/_components/data-table";
import { ReviewForms } from "./review-forms";

type ReviewStatus = "approved" | "pending" | "rejected" | "changeWaiting";

/** What waits for the operator comes first: new applications, then changes to approved ones, then the rest. */
const RANK: Record<ReviewStatus, number> = { pending: 0, changeWaiting: 1, approved: 2, rejected: 2 };
const BADGE: Record<ReviewStatus, string> = {
  pending: "bg-amber-100 text-amber-950 ring-amber-300",
  changeWaiting: "bg-amber-100 text-amber-950 ring-amber-300",
  approved: "bg-green-50 text-green-900 ring-green-200",
  rejected: "bg-slate-100 text-slate-700 ring-slate-300",
};

/**
 * The registered clients: a table on wide screens, a card per client on a phone. Applications and changes waiting
 * for approval come first, marked with their status, with the decision in the row.
 */
export async function ClientsTable({
  clients,
  states,
  csrf,
}: {
  clients: RegisteredClient[];
  states: Map<string, ClientReviewState>;
  csrf: string;
}) {
  const [t, locale] = [await getTranslations("Admin"), await getLocale()];
  if (clients.length === 0)
    return (
      <p className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
        {t("noClients")}
      </p>
    );
  const statusOf = (client: RegisteredClient) => reviewStatus(states.get(client.id));
  // A stable sort: within each rank the registry's order stays.
  const ordered = [...clients].sort((a, b) => RANK[statusOf(a)] - RANK[statusOf(b)]);
  return (
    <div className="mt-4 rounded-lg border border-slate-200 bg-white">
      <DataTable
        columns={[
          t("clientId"),
          t("name"),
          t("kind"),
          t("grants"),
          t("review.owner"),
          t("review.status"),
          t("review.decision"),
        ]}
      >
        {ordered.map((client) => {
          const status = statusOf(client);
          const state = states.get(client.id);
          const waiting = state && (status === "pending" || status === "changeWaiting");
          return (
            <DataRow key={client.id} data-client-id={client.id} className={waiting ? "bg-amber-50/60" : undefined}>
              <DataCell>
                <a
                  href={adminClientPage(client.id)}
                  className="font-medium text-brand-700 underline underline-offset-2"
                >
                  <Identifier value={client.id} />
                </a>
              </DataCell>
              <DataCell label={t("nameLabel")}>{localizedText(client.names, locale)}</DataCell>
              <DataCell label={t("kindLabel")}>{t(`kinds.${client.kind}.name`)}</DataCell>
              <DataCell label={t("grantsLabel")}>
                {client.grantTypes.map((grant, index) => (
                  <Fragment key={grant}>
                    {index > 0 ? ", " : null}
                    <Identifier value={grant} />
                  </Fragment>
                ))}
              </DataCell>
              <DataCell label={t("review.ownerLabel")}>{state?.owner?.name ?? "—"}</DataCell>
              <DataCell data-status={status} label={t("review.statusLabel")}>
                <span
                  className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${BADGE[status]}`}
                >
                  {t(`review.statuses.${status}`)}
                </span>
              </DataCell>
              <DataActions>
                {waiting ? <ReviewForms clientId={client.id} version={state.version} csrf={csrf} inList /> : null}
              </DataActions>
            </DataRow>
          );
        })}
      </DataTable>
    </div>
  );
}

/** approved, pending, rejected, or changeWaiting for an approved client with a change waiting. */
export function reviewStatus(state: ClientReviewState | undefined): ReviewStatus {
  if (!state) return "approved";
  if (state.status === "approved") return state.pendingMetadata ? "changeWaiting" : "approved";
  return state.status === "pending" ? "pending" : "rejected";
}
